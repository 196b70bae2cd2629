/*
 * plv8-compat: module init, GUCs, per-user V8 contexts, the compile cache and
 * the call / inline / validator handlers.
 */
#include "plv8_compat.h"

extern "C" {
#include "catalog/pg_language.h"
#include "commands/proclang.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/inval.h"
#include "utils/regproc.h"
#include "utils/json.h"

PG_MODULE_MAGIC;

PGDLLEXPORT void _PG_init(void);
PGDLLEXPORT Datum plv8_call_handler(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum plv8_inline_handler(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum plv8_call_validator(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum plv8_version(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum plv8_reset(PG_FUNCTION_ARGS);
PGDLLEXPORT Datum plv8_info(PG_FUNCTION_ARGS);

PG_FUNCTION_INFO_V1(plv8_call_handler);
PG_FUNCTION_INFO_V1(plv8_inline_handler);
PG_FUNCTION_INFO_V1(plv8_call_validator);
PG_FUNCTION_INFO_V1(plv8_version);
PG_FUNCTION_INFO_V1(plv8_reset);
PG_FUNCTION_INFO_V1(plv8_info);
}

#include <libplatform/libplatform.h>

#include <csignal>
#include <cstring>

#include <pthread.h>

using namespace v8;

/* GUCs */
static char *plv8_start_proc = NULL;
static char *plv8_v8_flags = NULL;
int			plv8_memory_limit_mb = 256;
int			plv8_execution_timeout_s = 300;

Plv8Context *current_context = NULL;
CallFrame  *current_frame = NULL;

/* never destroyed: no V8 teardown from static destructors at backend exit */
static Platform *v8_platform = NULL;
static bool v8_ready = false;
/* Contexts live for the session; never destroyed by static destructors at exit. */
static std::unordered_map<Oid, Plv8Context *> *contexts;
static Plv8Context *last_context = NULL;	/* one-entry lookup cache */
static uint64 proc_gen = 1;		/* bumped on every pg_proc invalidation */

FuncInfo::~FuncInfo()
{
	fn.Reset();
	if (mcxt)
		MemoryContextDelete(mcxt);
}

static void
proc_inval_callback(Datum arg, int cacheid, uint32 hashvalue)
{
	proc_gen++;
}

void
_PG_init(void)
{
	/*
	 * Superusers only (plv8 lets any user set it): the start proc runs with the rights of whoever's
	 * context is being created, so a user who could set it would have a function of theirs run as the
	 * owner of the first SECURITY DEFINER plv8 function they call in a fresh backend.  A superuser
	 * may GRANT SET ON PARAMETER plv8.start_proc to a role.
	 */
	DefineCustomStringVariable("plv8.start_proc",
							   "plv8 function run once when a user's JavaScript context is created.",
							   NULL, &plv8_start_proc, NULL, PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomStringVariable("plv8.v8_flags",
							   "V8 engine flags, applied when V8 is initialized in a backend.",
							   NULL, &plv8_v8_flags, NULL, PGC_SUSET, 0, NULL, NULL, NULL);
	DefineCustomIntVariable("plv8.memory_limit",
							"Heap limit of each JavaScript context, in MB (read when a context is created).",
							NULL, &plv8_memory_limit_mb, 256, 16, 16384, PGC_SUSET, GUC_UNIT_MB,
							NULL, NULL, NULL);
	/*
	 * Any user may set it, as in plv8: it only bounds the calls of the session that sets it (a
	 * call it stops fails and rolls back like one statement_timeout stops) and runs no code.
	 */
	DefineCustomIntVariable("plv8.execution_timeout",
							"Longest time one top-level JavaScript call may run, in seconds (0 = no limit).",
							NULL, &plv8_execution_timeout_s, 300, 0, 65536, PGC_USERSET, GUC_UNIT_S,
							NULL, NULL, NULL);
	MarkGUCPrefixReserved("plv8");
	CacheRegisterSyscacheCallback(PROCOID, proc_inval_callback, (Datum) 0);
	contexts = new std::unordered_map<Oid, Plv8Context *>();
}

/* ---------------------------------------------------------------------------
 * V8 engine and isolates
 */

/*
 * V8 reporting a fatal error would abort() the process: the postmaster would
 * then restart every connection.  Leave through FATAL instead, which ends only
 * this backend.
 */
static void
v8_fatal_error(const char *location, const char *message)
{
	ereport(FATAL, (errcode(ERRCODE_INTERNAL_ERROR),
					errmsg("V8 fatal error in %s: %s", location ? location : "?", message ? message : "?")));
}

static void
#if V8_MAJOR_VERSION >= 11
v8_oom_error(const char *location, const OOMDetails &details)	/* V8 11+ (Node 20's) */
#else
v8_oom_error(const char *location, bool is_heap_oom)	/* V8 10.2 (libnode108) */
#endif
{
	ereport(FATAL, (errcode(ERRCODE_OUT_OF_MEMORY),
					errmsg("JavaScript engine out of memory (%s)", location ? location : "?"),
					errhint("Raise plv8.memory_limit or use less memory in JavaScript.")));
}

/*
 * ArrayBuffer memory lives outside the V8 heap.  As in plv8 (plv8_allocator.cc),
 * an allocation fails once the heap in use plus every live ArrayBuffer plus the
 * new one would pass plv8.memory_limit: V8 then collects garbage, tries again,
 * and throws a catchable RangeError ("Array buffer allocation failed").
 */
class LimitedAllocator : public ArrayBuffer::Allocator
{
  public:
	explicit LimitedAllocator(size_t limit) : limit_(limit), used_(0) {}
	void		set_isolate(Isolate *isolate) { isolate_ = isolate; }
	void	   *Allocate(size_t length) override
	{
		if (!fits(length))
			return nullptr;
		void	   *p = calloc(1, length ? length : 1);

		if (p)
			used_ += length;
		return p;
	}
	void	   *AllocateUninitialized(size_t length) override
	{
		if (!fits(length))
			return nullptr;
		void	   *p = malloc(length ? length : 1);

		if (p)
			used_ += length;
		return p;
	}
	void		Free(void *data, size_t length) override
	{
		free(data);
		used_ -= length;
	}
  private:
	/*
	 * The heap in use is read again (GetHeapStatistics) once another MB of
	 * buffers has been asked for since the last reading, or when the last
	 * reading says the buffer does not fit: small buffers in a loop stay cheap.
	 */
	bool		fits(size_t length)
	{
		const size_t recheck = 1024 * 1024;

		if (length > limit_ || used_ > limit_ - length)
			return false;
		if (isolate_ && (since_ + length >= recheck || heap_ > limit_ - used_ - length))
		{
			HeapStatistics hs;

			isolate_->GetHeapStatistics(&hs);
			heap_ = hs.used_heap_size();
			since_ = 0;
		}
		if (heap_ > limit_ - used_ - length)
			return false;
		since_ += length;
		return true;
	}
	Isolate    *isolate_ = nullptr;
	size_t		limit_;
	size_t		used_;
	size_t		heap_ = 0;		/* heap in use at the last reading */
	size_t		since_ = 0;		/* bytes handed out since that reading */
};

static void
ensure_v8(void)
{
	sigset_t	all,
				old;
	std::string flags = "--single-threaded";

	if (v8_ready)
		return;
	if (plv8_v8_flags && plv8_v8_flags[0])
		flags += std::string(" ") + plv8_v8_flags;
	V8::SetFlagsFromString(flags.c_str(), flags.size());
	V8::InitializeICU();
	/* any thread V8 creates must leave the backend's signals to the main thread */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	v8_platform = platform::NewSingleThreadedDefaultPlatform().release();
	V8::InitializePlatform(v8_platform);
	V8::Initialize();
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	v8_ready = true;
}

/*
 * Heap nearly full: stop the script, and give V8 a little room so that it can
 * unwind instead of aborting.  The original limit comes back after the call.
 */
static size_t
near_heap_limit(void *data, size_t current_heap_limit, size_t initial_heap_limit)
{
	Plv8Context *ctx = (Plv8Context *) data;

	ctx->oom = true;
	ctx->isolate->TerminateExecution();
	if (current_heap_limit > initial_heap_limit * 4)
		return current_heap_limit;
	return current_heap_limit + std::max<size_t>(initial_heap_limit / 2, 32 * 1024 * 1024);
}

static void destroy_context(Plv8Context *ctx);
static void run_start_proc(Plv8Context *ctx);

static Plv8Context *
create_context(Oid user_id)
{
	Plv8Context *ctx;
	Isolate::CreateParams params;

	ensure_v8();
	ctx = new Plv8Context();
	ctx->user_id = user_id;
	ctx->active = 0;
	ctx->oom = false;
	ctx->pending_error = NULL;
	ctx->heap_limit = (size_t) plv8_memory_limit_mb * 1024 * 1024;
	ctx->allocator = new LimitedAllocator(ctx->heap_limit);
	params.array_buffer_allocator = ctx->allocator;
	params.constraints.set_max_old_generation_size_in_bytes(ctx->heap_limit);
	ctx->isolate = Isolate::New(params);
	static_cast<LimitedAllocator *>(ctx->allocator)->set_isolate(ctx->isolate);
	ctx->isolate->SetFatalErrorHandler(v8_fatal_error);
	ctx->isolate->SetOOMErrorHandler(v8_oom_error);
	ctx->isolate->AddNearHeapLimitCallback(near_heap_limit, ctx);
	{
		Isolate::Scope iscope(ctx->isolate);
		HandleScope hscope(ctx->isolate);
		Local<Context> context = Context::New(ctx->isolate);
		Context::Scope cscope(context);

		/* no console, require, timers or I/O: only the plv8 object */
		ignore_result(context->Global()->Delete(context, js_str(ctx->isolate, "console")));
		install_plv8_object(ctx, context);
		ctx->context.Reset(ctx->isolate, context);
		Local<Value> noop = Script::Compile(context, js_str(ctx->isolate, "(function () {})")).ToLocalChecked()
			->Run(context).ToLocalChecked();

		ctx->noop.Reset(ctx->isolate, noop.As<Function>());
	}
	(*contexts)[user_id] = ctx;
	try
	{
		run_start_proc(ctx);
	}
	catch (...)
	{
		/* a context whose start_proc failed is not kept: the next call retries */
		destroy_context(ctx);
		throw;
	}
	return ctx;
}

static void
destroy_context(Plv8Context *ctx)
{
	contexts->erase(ctx->user_id);
	if (last_context == ctx)
		last_context = NULL;
	ctx->functions.clear();
	ctx->plan_template.Reset();
	ctx->cursor_template.Reset();
	ctx->noop.Reset();
	ctx->context.Reset();
	ctx->isolate->Dispose();
	delete ctx->allocator;
	if (ctx->pending_error)
		FreeErrorData(ctx->pending_error);
	delete ctx;
}

static Plv8Context *
get_context(Oid user_id)
{
	if (last_context && last_context->user_id == user_id)
		return last_context;
	auto		it = contexts->find(user_id);
	Plv8Context *ctx = it != contexts->end() ? it->second : create_context(user_id);

	last_context = ctx;
	return ctx;
}

/* ---------------------------------------------------------------------------
 * Running JS
 */

/*
 * While JS of a context runs: it is the current context, the watchdog may
 * terminate it, and at the outermost level a termination is cleared again so
 * the context stays usable.
 */
class JsRun
{
  public:
	explicit JsRun(Plv8Context *ctx) : ctx_(ctx), saved_(current_context)
	{
		current_context = ctx;
		ctx->active++;
		watchdog_enter(ctx->isolate);
	}
	~JsRun()
	{
		watchdog_leave(ctx_->isolate);
		if (--ctx_->active == 0)
		{
			ctx_->isolate->CancelTerminateExecution();
			if (ctx_->oom)
			{
				/* collect the garbage of the failed call, then restore the limit */
				ctx_->oom = false;
				ctx_->isolate->LowMemoryNotification();
				ctx_->isolate->RemoveNearHeapLimitCallback(near_heap_limit, ctx_->heap_limit);
				ctx_->isolate->AddNearHeapLimitCallback(near_heap_limit, ctx_);
			}
			if (ctx_->pending_error)
			{
				FreeErrorData(ctx_->pending_error);
				ctx_->pending_error = NULL;
			}
		}
		current_context = saved_;
	}
  private:
	Plv8Context *ctx_;
	Plv8Context *saved_;
};

/* How a call ended badly; raised by the caller once every V8 scope is closed. */
struct Outcome
{
	ErrorData  *edata = nullptr;
	bool		rethrow = false;	/* complete PG error: ReThrowError */
	bool		check_interrupts = false;
};

/* A complete ErrorData (output flags included, so ReThrowError reports it). */
static ErrorData *
make_edata(int code, const char *msg, const char *detail, const char *hint)
{
	try
	{
		PG_GUARD(ereport(ERROR, (errcode(code), errmsg_internal("%s", msg),
								 detail ? errdetail_internal("%s", detail) : 0,
								 hint ? errhint("%s", hint) : 0)));
	}
	catch (PgError &e)
	{
		return e.edata;
	}
	return NULL;				/* not reached */
}

/* Classify a failed JS call (inside the V8 scopes, JsRun still active). */
static void
js_failure(Plv8Context *ctx, TryCatch &tc, Outcome &out, const char *fname)
{
	Isolate    *isolate = ctx->isolate;

	if (ctx->pending_error || tc.HasTerminated() || isolate->IsExecutionTerminating() || !tc.HasCaught())
	{
		char		buf[200];

		if (ctx->pending_error)
		{
			out.edata = copy_edata(ctx->pending_error, CurrentMemoryContext);
			out.rethrow = true;
			return;
		}
		if (ctx->oom)
		{
			snprintf(buf, sizeof(buf), "plv8.memory_limit is %d MB", plv8_memory_limit_mb);
			out.edata = make_edata(ERRCODE_OUT_OF_MEMORY, "JavaScript heap out of memory", buf,
								   "Raise plv8.memory_limit (takes effect for new contexts, see plv8_reset()).");
			return;
		}
		switch (watchdog_take_reason())
		{
			case 1:
				out.check_interrupts = true;
				out.edata = make_edata(ERRCODE_QUERY_CANCELED, "canceling statement due to user request",
									   NULL, NULL);
				return;
			case 2:
				snprintf(buf, sizeof(buf), "JavaScript execution timed out (plv8.execution_timeout = %d s)",
						 plv8_execution_timeout_s);
				out.edata = make_edata(ERRCODE_QUERY_CANCELED, buf, NULL, NULL);
				return;
			default:
				out.edata = make_edata(ERRCODE_QUERY_CANCELED, "JavaScript execution was terminated",
									   NULL, NULL);
				return;
		}
	}
	out.edata = js_exception_to_edata(isolate, tc, fname);
}

/* Leave V8 first, then report. */
static void
raise_outcome(Outcome &out)
{
	ErrorData  *e = out.edata;

	if (out.check_interrupts)
		CHECK_FOR_INTERRUPTS();
	if (out.rethrow)
		ReThrowError(e);
	ereport(ERROR,
			(errcode(e->sqlerrcode),
			 errmsg_internal("%s", e->message),
			 e->detail ? errdetail_internal("%s", e->detail) : 0,
			 e->hint ? errhint("%s", e->hint) : 0,
			 e->context ? errcontext("%s", e->context) : 0,
			 e->schema_name ? err_generic_string(PG_DIAG_SCHEMA_NAME, e->schema_name) : 0,
			 e->table_name ? err_generic_string(PG_DIAG_TABLE_NAME, e->table_name) : 0,
			 e->column_name ? err_generic_string(PG_DIAG_COLUMN_NAME, e->column_name) : 0,
			 e->datatype_name ? err_generic_string(PG_DIAG_DATATYPE_NAME, e->datatype_name) : 0,
			 e->constraint_name ? err_generic_string(PG_DIAG_CONSTRAINT_NAME, e->constraint_name) : 0));
}

/* Counts the running invocations of a function (see result_rowinfo). */
class ActiveCall
{
  public:
	explicit ActiveCall(FuncInfo *fi) : fi_(fi) { fi->calls++; }
	~ActiveCall()
	{
		if (--fi_->calls == 0)
		{
			for (MemoryContext c : fi_->retired_rows)
				MemoryContextDelete(c);
			fi_->retired_rows.clear();
		}
	}
  private:
	FuncInfo   *fi_;
};

class FramePush
{
  public:
	explicit FramePush(CallFrame *f) : f_(f)
	{
		f->prev = current_frame;
		current_frame = f;
	}
	~FramePush() { current_frame = f_->prev; }
  private:
	CallFrame  *f_;
};

/* "plv8 function "f"" on errors raised while converting arguments / results */
static void
plv8_error_callback(void *arg)
{
	errcontext("plv8 function \"%s\"", (const char *) arg);
}

class ErrCtxPush
{
  public:
	explicit ErrCtxPush(const char *name)
	{
		cb_.callback = plv8_error_callback;
		cb_.arg = (void *) name;
		cb_.previous = error_context_stack;
		error_context_stack = &cb_;
	}
	~ErrCtxPush() { error_context_stack = cb_.previous; }
  private:
	ErrorContextCallback cb_;
};

/*
 * SPI is connected on the first plv8.execute() & co. of a call, not on every
 * call: most functions never touch SQL.  The connection must exist before any
 * subtransaction begins (SPI pops connections made inside one).
 */
void
ensure_spi_connected(void)
{
	CallFrame  *f = current_frame;

	if (!f)
		throw PgError{make_edata(ERRCODE_INTERNAL_ERROR, "plv8: no function is executing", NULL, NULL)};
	if (!f->spi_connected)
	{
		MemoryContext old = CurrentMemoryContext;

		PG_GUARD(SPI_connect());
		MemoryContextSwitchTo(old);
		f->spi_connected = true;
	}
}

static void
finish_spi(CallFrame *f, MemoryContext cxt)
{
	if (f->spi_connected)
	{
		f->spi_connected = false;
		PG_GUARD(SPI_finish());
		MemoryContextSwitchTo(cxt);
	}
}

/*
 * The same on the way out with an error, so that the SPI stack is left as the
 * call found it whether or not the error is caught above (abort cleanup would
 * pop the connection only when the (sub)transaction that made it ends, and a
 * PG_GUARD in an outer plv8 callback may go on without one).  The connection
 * of this frame is the innermost one here: callbacks run their SPI work in a
 * subtransaction, whose rollback pops any connection made inside it.  The
 * error being reported must not live in SPI memory: callers switch to cxt
 * before building it.
 */
static void
finish_spi_after_error(CallFrame *f, MemoryContext cxt)
{
	try
	{
		finish_spi(f, cxt);
	}
	catch (PgError &e)
	{
		/* keep reporting the original error */
		MemoryContextSwitchTo(cxt);
		FreeErrorData(e.edata);
	}
}

/* ---------------------------------------------------------------------------
 * Compilation
 */

static Local<Function>
compile_js(Isolate *isolate, Local<Context> context, const std::string &name,
		   const std::string &params, const char *body)
{
	TryCatch	tc(isolate);
	std::string src = "(function (" + params + ") {\n" + body + "\n})";
	Local<v8::String> source;
	Local<Script> script;
	Local<Value> fn;

	if (!v8::String::NewFromUtf8(isolate, src.data(), NewStringType::kNormal, (int) src.size()).ToLocal(&source))
		throw PgError{make_edata(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "function source is too long", NULL, NULL)};
	/* line offset -1: the wrapper's first line does not count, errors use body lines */
	ScriptOrigin origin(isolate, js_str(isolate, name.c_str()), -1, 0);

	if (!Script::Compile(context, source, &origin).ToLocal(&script) ||
		!script->Run(context).ToLocal(&fn) || !fn->IsFunction())
	{
		Outcome		out;

		js_failure(current_context, tc, out, name.c_str());
		if (out.edata && out.edata->sqlerrcode == ERRCODE_INTERNAL_ERROR)
			out.edata->sqlerrcode = ERRCODE_SYNTAX_ERROR;
		throw PgError{out.edata, !out.rethrow};
	}
	return fn.As<Function>();
}

/* Catalog facts about a function, gathered in one guarded step. */
struct ProcFacts
{
	char	   *name;
	char	   *src;
	int			nargs;
	Oid		   *argtypes;
	char	  **argnames;		/* may be NULL */
	int			nnames;
	Oid			rettype;
	bool		retset;
	char		volatility;
	char		prokind;
	TupleDesc	outdesc;
	TransactionId xmin;
	ItemPointerData tid;
	Oid			lang;
};

static void
read_proc(Oid fn_oid, ProcFacts *pf)
{
	HeapTuple	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn_oid));
	Form_pg_proc proc;
	Datum		d;
	bool		isnull;
	Datum		names,
				modes;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", fn_oid);
	proc = (Form_pg_proc) GETSTRUCT(tup);
	pf->name = pstrdup(NameStr(proc->proname));
	d = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_prosrc, &isnull);
	if (isnull)
		elog(ERROR, "null prosrc for function %u", fn_oid);
	pf->src = TextDatumGetCString(d);
	pf->nargs = proc->pronargs;
	pf->argtypes = (Oid *) palloc(sizeof(Oid) * (pf->nargs + 1));
	memcpy(pf->argtypes, proc->proargtypes.values, sizeof(Oid) * pf->nargs);
	names = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_proargnames, &isnull);
	if (isnull)
		names = PointerGetDatum(NULL);
	modes = SysCacheGetAttr(PROCOID, tup, Anum_pg_proc_proargmodes, &isnull);
	if (isnull)
		modes = PointerGetDatum(NULL);
	pf->argnames = NULL;
	pf->nnames = get_func_input_arg_names(names, modes, &pf->argnames);
	pf->rettype = proc->prorettype;
	pf->retset = proc->proretset;
	pf->volatility = proc->provolatile;
	pf->prokind = proc->prokind;
	pf->lang = proc->prolang;
	pf->outdesc = build_function_result_tupdesc_t(tup);
	pf->xmin = HeapTupleHeaderGetRawXmin(tup->t_data);
	pf->tid = tup->t_self;
	ReleaseSysCache(tup);
}

static void
check_types(ProcFacts *pf)
{
	char		rtyp = get_typtype(pf->rettype);

	/* result first: "cannot return anyelement" says more than the argument would */

	if (pf->rettype == EVENT_TRIGGEROID)
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						errmsg("plv8 functions cannot be event triggers")));
	if (rtyp == TYPTYPE_PSEUDO && pf->rettype != VOIDOID && pf->rettype != RECORDOID &&
		pf->rettype != TRIGGEROID)
		ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
						errmsg("plv8 functions cannot return type %s", format_type_be(pf->rettype))));
	for (int i = 0; i < pf->nargs; i++)
	{
		if (get_typtype(pf->argtypes[i]) == TYPTYPE_PSEUDO && pf->argtypes[i] != RECORDOID)
			ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
							errmsg("plv8 functions cannot accept type %s", format_type_be(pf->argtypes[i]))));
	}
}

static std::string
param_list(ProcFacts *pf, bool is_trigger)
{
	std::string params;

	if (is_trigger)
		return "NEW, OLD, TG_NAME, TG_WHEN, TG_LEVEL, TG_OP, TG_RELID, TG_TABLE_NAME, TG_TABLE_SCHEMA, TG_ARGV";
	for (int i = 0; i < pf->nargs; i++)
	{
		if (i > 0)
			params += ", ";
		if (pf->argnames && i < pf->nnames && pf->argnames[i] && pf->argnames[i][0])
			params += pf->argnames[i];
		else
			params += "$" + std::to_string(i + 1);
	}
	return params;
}

static std::shared_ptr<FuncInfo>
compile_function(Plv8Context *ctx, Oid fn_oid)
{
	ProcFacts	pf;
	std::shared_ptr<FuncInfo> fi = std::make_shared<FuncInfo>();

	memset(&pf, 0, sizeof(pf));
	PG_GUARD(read_proc(fn_oid, &pf); check_types(&pf));
	fi->fn_oid = fn_oid;
	fi->xmin = pf.xmin;
	fi->tid = pf.tid;
	fi->validated_gen = proc_gen;
	fi->name = pf.name;
	PG_GUARD(fi->mcxt = AllocSetContextCreate(TopMemoryContext, "plv8 function", ALLOCSET_SMALL_SIZES));
	fi->is_trigger = pf.rettype == TRIGGEROID;
	fi->retset = pf.retset;
	fi->read_only = pf.volatility != PROVOLATILE_VOLATILE;
	fi->nargs = pf.nargs;
	fi->rettype = pf.rettype;
	fi->ret_void = pf.rettype == VOIDOID;
	PG_GUARD(fi->argtypes = (TypeInfo **) MemoryContextAllocZero(fi->mcxt, sizeof(TypeInfo *) * (pf.nargs + 1)));
	for (int i = 0; i < pf.nargs; i++)
		fi->argtypes[i] = typeinfo_create(pf.argtypes[i], -1, fi->mcxt);
	if (!fi->is_trigger && !fi->ret_void)
	{
		if (pf.outdesc)
		{
			MemoryContext old = MemoryContextSwitchTo(fi->mcxt);

			PG_GUARD(BlessTupleDesc(pf.outdesc));
			MemoryContextSwitchTo(old);
			fi->ret_row = rowinfo_create(pf.outdesc, fi->mcxt);
			PG_GUARD(BlessTupleDesc(fi->ret_row->tupdesc));
			fi->retkind = TK_COMPOSITE;
		}
		else if (pf.rettype == RECORDOID)
		{
			fi->ret_record_dynamic = true;
			fi->retkind = TK_COMPOSITE;
		}
		else
		{
			fi->ret = typeinfo_create(pf.rettype, -1, fi->mcxt);
			fi->retkind = fi->ret->kind;
		}
	}

	Isolate    *isolate = ctx->isolate;
	HandleScope scope(isolate);
	Local<Context> context = ctx->context.Get(isolate);
	Context::Scope cscope(context);
	JsRun		run(ctx);
	Local<Function> fn = compile_js(isolate, context, fi->name, param_list(&pf, fi->is_trigger), pf.src);

	fi->fn.Reset(isolate, fn);
	return fi;
}

std::shared_ptr<FuncInfo>
get_function(Plv8Context *ctx, Oid fn_oid, bool for_validation)
{
	auto		it = ctx->functions.find(fn_oid);

	if (it != ctx->functions.end())
	{
		FuncInfo   *fi = it->second.get();
		bool		same;

		if (fi->validated_gen == proc_gen)
			return it->second;
		/* like PL/pgSQL: the function is unchanged while its pg_proc row is */
		PG_GUARD(HeapTuple tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn_oid));
				 if (!HeapTupleIsValid(tup))
				 elog(ERROR, "cache lookup failed for function %u", fn_oid);
				 same = fi->xmin == HeapTupleHeaderGetRawXmin(tup->t_data) &&
				 ItemPointerEquals(&fi->tid, &tup->t_self);
				 ReleaseSysCache(tup));
		if (same)
		{
			fi->validated_gen = proc_gen;
			return it->second;
		}
	}
	std::shared_ptr<FuncInfo> fi = compile_function(ctx, fn_oid);

	if (!for_validation)
		ctx->functions[fn_oid] = fi;
	return fi;
}

/* ---------------------------------------------------------------------------
 * Calls
 */

/* Row type of a composite result for this call. */
static RowInfo *
result_rowinfo(FuncInfo *fi, FunctionCallInfo fcinfo)
{
	if (fi->ret_row && !fi->ret_record_dynamic && fi->rettype == RECORDOID)
		return fi->ret_row;		/* OUT parameters: fixed */
	if (fi->ret_record_dynamic)
	{
		TupleDesc	td;
		TypeFuncClass cls;

		PG_GUARD(cls = get_call_result_type(fcinfo, NULL, &td));
		if (cls != TYPEFUNC_COMPOSITE)
			throw PgError{make_edata(ERRCODE_FEATURE_NOT_SUPPORTED,
									 "function returning record called in context that cannot accept type record",
									 NULL, NULL)};
		RowInfo    *ri = rowinfo_create(td, CurrentMemoryContext);

		PG_GUARD(BlessTupleDesc(ri->tupdesc));
		return ri;
	}
	/* named composite type: follow ALTER TYPE through the typcache identifier */
	TypeCacheEntry *tce;

	PG_GUARD(tce = lookup_type_cache(fi->rettype, TYPECACHE_TUPDESC));
	if (!tce->tupDesc)
		throw PgError{make_edata(ERRCODE_WRONG_OBJECT_TYPE, "return type is not a row type", NULL, NULL)};
	if (!fi->ret_row || fi->ret_row->tupdesc_id != tce->tupDesc_identifier)
	{
		MemoryContext cxt;
		RowInfo    *ri;

		/* each cached row type in a context of its own, freed when replaced */
		PG_GUARD(cxt = AllocSetContextCreate(fi->mcxt, "plv8 row type", ALLOCSET_SMALL_SIZES));
		try
		{
			ri = rowinfo_create(tce->tupDesc, cxt);
		}
		catch (...)
		{
			MemoryContextDelete(cxt);
			throw;
		}
		ri->tupdesc_id = tce->tupDesc_identifier;
		if (fi->ret_row_cxt)
		{
			/* an outer running call of this function may still use the old one */
			if (fi->calls > 1)
				fi->retired_rows.push_back(fi->ret_row_cxt);
			else
				MemoryContextDelete(fi->ret_row_cxt);
		}
		fi->ret_row = ri;
		fi->ret_row_cxt = cxt;
	}
	return fi->ret_row;
}

static void
setup_srf(FuncInfo *fi, FunctionCallInfo fcinfo, CallFrame *frame)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	TupleDesc	td;

	if (!rsinfo || !IsA(rsinfo, ReturnSetInfo) || !(rsinfo->allowedModes & SFRM_Materialize))
		throw PgError{make_edata(ERRCODE_FEATURE_NOT_SUPPORTED,
								 "set-valued function called in context that cannot accept a set",
								 NULL, NULL)};
	MemoryContext per_query = rsinfo->econtext->ecxt_per_query_memory;

	if (fi->retkind == TK_COMPOSITE)
	{
		frame->set_row = result_rowinfo(fi, fcinfo);
		td = frame->set_row->tupdesc;
	}
	else
	{
		frame->set_elem = fi->ret;
		PG_GUARD(td = CreateTemplateTupleDesc(1);
				 TupleDescInitEntry(td, (AttrNumber) 1, "value", fi->rettype, -1, 0));
	}
	MemoryContext old = MemoryContextSwitchTo(per_query);

	PG_GUARD(frame->tupstore = tuplestore_begin_heap(rsinfo->allowedModes & SFRM_Materialize_Random,
													 false, work_mem);
			 frame->tupdesc = CreateTupleDescCopy(td));
	MemoryContextSwitchTo(old);
	frame->rsinfo = rsinfo;
	rsinfo->returnMode = SFRM_Materialize;
	rsinfo->setResult = frame->tupstore;
	rsinfo->setDesc = frame->tupdesc;
}

/* One row into the set of the innermost SRF; used by plv8.return_next too. */
void
srf_put(Isolate *isolate, CallFrame *frame, Local<Value> v)
{
	if (frame->set_row)
	{
		int			natts = frame->set_row->tupdesc->natts;
		Datum	   *values;
		bool	   *nulls;

		PG_GUARD(values = (Datum *) palloc(sizeof(Datum) * (natts + 1));
				 nulls = (bool *) palloc(sizeof(bool) * (natts + 1)));
		js_to_row(isolate, v, frame->set_row, values, nulls);
		PG_GUARD(tuplestore_putvalues(frame->tupstore, frame->tupdesc, values, nulls));
	}
	else
	{
		Datum		value;
		bool		isnull;

		value = js_to_datum(isolate, v, &isnull, frame->set_elem);
		PG_GUARD(tuplestore_putvalues(frame->tupstore, frame->tupdesc, &value, &isnull));
	}
}

static Local<Value>
trigger_arg(Isolate *isolate, int i, TriggerData *td)
{
	Relation	rel = td->tg_relation;
	TriggerEvent ev = td->tg_event;

	switch (i)
	{
		case 0:				/* NEW */
			if (TRIGGER_FIRED_FOR_ROW(ev) && TRIGGER_FIRED_BY_INSERT(ev))
				return heaptuple_to_js(isolate, td->tg_trigtuple, RelationGetDescr(rel));
			if (TRIGGER_FIRED_FOR_ROW(ev) && TRIGGER_FIRED_BY_UPDATE(ev))
				return heaptuple_to_js(isolate, td->tg_newtuple, RelationGetDescr(rel));
			return Undefined(isolate);
		case 1:				/* OLD */
			if (TRIGGER_FIRED_FOR_ROW(ev) && (TRIGGER_FIRED_BY_UPDATE(ev) || TRIGGER_FIRED_BY_DELETE(ev)))
				return heaptuple_to_js(isolate, td->tg_trigtuple, RelationGetDescr(rel));
			return Undefined(isolate);
		case 2:
			return js_str(isolate, td->tg_trigger->tgname);
		case 3:
			return js_str(isolate, TRIGGER_FIRED_BEFORE(ev) ? "BEFORE" :
						  TRIGGER_FIRED_AFTER(ev) ? "AFTER" : "INSTEAD OF");
		case 4:
			return js_str(isolate, TRIGGER_FIRED_FOR_ROW(ev) ? "ROW" : "STATEMENT");
		case 5:
			return js_str(isolate, TRIGGER_FIRED_BY_INSERT(ev) ? "INSERT" :
						  TRIGGER_FIRED_BY_UPDATE(ev) ? "UPDATE" :
						  TRIGGER_FIRED_BY_DELETE(ev) ? "DELETE" : "TRUNCATE");
		case 6:
			return v8::Integer::NewFromUnsigned(isolate, RelationGetRelid(rel));
		case 7:
			return js_str(isolate, RelationGetRelationName(rel));
		case 8:
			{
				char	   *nsp;

				PG_GUARD(nsp = get_namespace_name(RelationGetNamespace(rel)));
				return js_str(isolate, nsp);
			}
		case 9:
			{
				Local<Context> context = isolate->GetCurrentContext();
				Local<Array> argv = Array::New(isolate, td->tg_trigger->tgnargs);

				for (int j = 0; j < td->tg_trigger->tgnargs; j++)
					ignore_result(argv->Set(context, j, js_str(isolate, td->tg_trigger->tgargs[j])));
				return argv;
			}
	}
	return Undefined(isolate);
}

static Datum
trigger_result(Isolate *isolate, Local<Value> r, TriggerData *td)
{
	TriggerEvent ev = td->tg_event;
	HeapTuple	row;

	if (!TRIGGER_FIRED_FOR_ROW(ev) || TRIGGER_FIRED_AFTER(ev))
		return PointerGetDatum(NULL);
	/* undefined: go on with the row unchanged; null: skip this row */
	row = TRIGGER_FIRED_BY_UPDATE(ev) ? td->tg_newtuple : td->tg_trigtuple;
	if (r->IsNull())
		return PointerGetDatum(NULL);
	if (r->IsUndefined() || TRIGGER_FIRED_BY_DELETE(ev))
		return PointerGetDatum(row);
	RowInfo    *ri = rowinfo_create(RelationGetDescr(td->tg_relation), CurrentMemoryContext);

	return PointerGetDatum(js_to_heaptuple(isolate, r, ri));
}

/*
 * The exception being handled, as a handler's outcome (call only inside a catch block): a
 * PostgreSQL error is kept as it is, anything else becomes an internal error.
 */
static void
outcome_from_exception(Outcome &out, MemoryContext caller_cxt)
{
	MemoryContextSwitchTo(caller_cxt);
	try
	{
		throw;
	}
	catch (PgError &e)
	{
		out.edata = e.edata;
		out.rethrow = !e.from_js;
	}
	catch (std::exception &e)
	{
		out.edata = make_edata(ERRCODE_INTERNAL_ERROR, e.what(), NULL, NULL);
	}
	catch (...)
	{
		out.edata = make_edata(ERRCODE_INTERNAL_ERROR, "unexpected C++ exception in plv8", NULL, NULL);
	}
}

static Datum
call_impl(FunctionCallInfo fcinfo, Outcome &out)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	Datum		result = (Datum) 0;
	CallFrame	frame;

	memset(&frame, 0, sizeof(frame));
	try
	{
		Plv8Context *ctx = get_context(GetUserId());
		std::shared_ptr<FuncInfo> fip = get_function(ctx, fcinfo->flinfo->fn_oid, false);
		FuncInfo   *fi = fip.get();
		bool		is_trigger = CALLED_AS_TRIGGER(fcinfo);
		Isolate    *isolate = ctx->isolate;
		ErrCtxPush	ecp(fi->name.c_str());

		if (fi->is_trigger != is_trigger)
			throw PgError{make_edata(ERRCODE_FEATURE_NOT_SUPPORTED, is_trigger
									 ? "trigger functions must return type trigger"
									 : "trigger functions can only be called as triggers", NULL, NULL)};
		frame.fn = fi;
		frame.read_only = fi->read_only;
		ActiveCall	ac(fi);
		FramePush	fp(&frame);
		Isolate::Scope iscope(isolate);
		HandleScope hscope(isolate);
		Local<Context> context = ctx->context.Get(isolate);
		Context::Scope cscope(context);
		TryCatch	tc(isolate);
		JsRun		run(ctx);

		try
		{
			int			nargs = is_trigger ? 10 : fi->nargs;
			Local<Value> argv_stack[16];
			std::vector<Local<Value>> argv_heap;
			Local<Value> *argv = argv_stack;
			Local<Value> r;

			if (nargs > 16)
			{
				argv_heap.resize(nargs);
				argv = argv_heap.data();
			}
			if (is_trigger)
			{
				for (int i = 0; i < 10; i++)
					argv[i] = trigger_arg(isolate, i, (TriggerData *) fcinfo->context);
			}
			else
			{
				for (int i = 0; i < nargs; i++)
					argv[i] = datum_to_js(isolate, fcinfo->args[i].value, fcinfo->args[i].isnull,
										  fi->argtypes[i]);
			}
			if (fi->retset)
				setup_srf(fi, fcinfo, &frame);

			if (!fi->fn.Get(isolate)->Call(context, context->Global(), nargs, argv).ToLocal(&r) ||
				ctx->pending_error)
				throw JsPending();

			if (is_trigger)
				result = trigger_result(isolate, r, (TriggerData *) fcinfo->context);
			else if (fi->retset)
			{
				/* an array returned by an SRF is its rows (after any return_next) */
				if (r->IsArray())
				{
					Local<Array> a = r.As<Array>();

					for (uint32_t i = 0; i < a->Length(); i++)
					{
						HandleScope s(isolate);
						Local<Value> e;

						if (!a->Get(context, i).ToLocal(&e))
							throw JsPending();
						srf_put(isolate, &frame, e);
					}
				}
				else if (!r->IsNullOrUndefined())
					srf_put(isolate, &frame, r);
				fcinfo->isnull = true;
			}
			else if (fi->ret_void)
				result = (Datum) 0;
			else if (fi->retkind == TK_COMPOSITE)
			{
				if (r->IsNullOrUndefined())
					fcinfo->isnull = true;
				else
				{
					RowInfo    *ri = result_rowinfo(fi, fcinfo);

					HeapTuple	tup = js_to_heaptuple(isolate, r, ri);

					PG_GUARD(result = HeapTupleGetDatum(tup));
				}
			}
			else
			{
				bool		isnull;

				result = js_to_datum(isolate, r, &isnull, fi->ret);
				fcinfo->isnull = isnull;
			}
		}
		catch (JsPending &)
		{
			MemoryContextSwitchTo(caller_cxt);
			js_failure(ctx, tc, out, fi->name.c_str());
			finish_spi_after_error(&frame, caller_cxt);
			return (Datum) 0;
		}
		finish_spi(&frame, caller_cxt);
	}
	catch (...)
	{
		outcome_from_exception(out, caller_cxt);
		finish_spi_after_error(&frame, caller_cxt);
	}
	MemoryContextSwitchTo(caller_cxt);
	return result;
}

Datum
plv8_call_handler(PG_FUNCTION_ARGS)
{
	Outcome		out;
	Datum		result = call_impl(fcinfo, out);

	if (out.edata)
		raise_outcome(out);
	return result;
}

/* DO blocks: compiled every time, no arguments, result ignored. */
static void
inline_impl(const char *src, Outcome &out)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	CallFrame	frame;

	memset(&frame, 0, sizeof(frame));
	try
	{
		Plv8Context *ctx = get_context(GetUserId());
		Isolate    *isolate = ctx->isolate;
		FramePush	fp(&frame);
		Isolate::Scope iscope(isolate);
		HandleScope hscope(isolate);
		Local<Context> context = ctx->context.Get(isolate);
		Context::Scope cscope(context);
		TryCatch	tc(isolate);
		JsRun		run(ctx);
		Local<Function> fn = compile_js(isolate, context, "anonymous", "", src);
		Local<Value> r;

		if (!fn->Call(context, context->Global(), 0, nullptr).ToLocal(&r) || ctx->pending_error)
		{
			MemoryContextSwitchTo(caller_cxt);
			js_failure(ctx, tc, out, "anonymous");
			finish_spi_after_error(&frame, caller_cxt);
			return;
		}
		finish_spi(&frame, caller_cxt);
	}
	catch (...)
	{
		outcome_from_exception(out, caller_cxt);
		finish_spi_after_error(&frame, caller_cxt);
	}
	MemoryContextSwitchTo(caller_cxt);
}

Datum
plv8_inline_handler(PG_FUNCTION_ARGS)
{
	InlineCodeBlock *codeblock = (InlineCodeBlock *) DatumGetPointer(PG_GETARG_DATUM(0));
	Outcome		out;

	inline_impl(codeblock->source_text, out);
	if (out.edata)
		raise_outcome(out);
	PG_RETURN_VOID();
}

static void
validate_impl(Oid fn_oid, Outcome &out)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	CallFrame	frame;

	memset(&frame, 0, sizeof(frame));
	try
	{
		ProcFacts	pf;

		memset(&pf, 0, sizeof(pf));
		PG_GUARD(read_proc(fn_oid, &pf); check_types(&pf));
		if (!check_function_bodies)
			return;
		Plv8Context *ctx = get_context(GetUserId());
		FramePush	fp(&frame);

		(void) get_function(ctx, fn_oid, true);
	}
	catch (...)
	{
		outcome_from_exception(out, caller_cxt);
	}
	MemoryContextSwitchTo(caller_cxt);
}

Datum
plv8_call_validator(PG_FUNCTION_ARGS)
{
	Oid			fn_oid = PG_GETARG_OID(0);
	Outcome		out;

	if (!CheckFunctionValidatorAccess(fcinfo->flinfo->fn_oid, fn_oid))
		PG_RETURN_VOID();
	validate_impl(fn_oid, out);
	if (out.edata)
		raise_outcome(out);
	PG_RETURN_VOID();
}

/* ---------------------------------------------------------------------------
 * start_proc
 */

static void
warn(const char *msg)
{
	PG_GUARD(ereport(WARNING, (errmsg_internal("%s", msg))));
}

static void
run_start_proc(Plv8Context *ctx)
{
	Oid			fn_oid = InvalidOid;
	Oid			lang = InvalidOid;
	Oid			plv8_lang;
	AclResult	acl = ACLCHECK_OK;

	if (!plv8_start_proc || !plv8_start_proc[0])
		return;
	try
	{
		PG_GUARD(fn_oid = DatumGetObjectId(DirectFunctionCall1(regprocin, CStringGetDatum(plv8_start_proc)));
				 lang = plv8_func_lang(fn_oid);
				 acl = plv8_proc_aclcheck(fn_oid, GetUserId(), ACL_EXECUTE));
	}
	catch (PgError &e)
	{
		std::string msg = std::string("failed to find plv8.start_proc \"") + plv8_start_proc + "\": " +
			(e.edata->message ? e.edata->message : "");

		FreeErrorData(e.edata);
		warn(msg.c_str());
		return;
	}
	PG_GUARD(plv8_lang = get_language_oid("plv8", false));
	if (lang != plv8_lang)
	{
		warn((std::string("plv8.start_proc \"") + plv8_start_proc + "\" is not a plv8 function").c_str());
		return;
	}
	if (acl != ACLCHECK_OK)
	{
		warn((std::string("permission denied to run plv8.start_proc \"") + plv8_start_proc + "\"").c_str());
		return;
	}

	CallFrame	frame;
	MemoryContext cxt = CurrentMemoryContext;

	memset(&frame, 0, sizeof(frame));
	std::shared_ptr<FuncInfo> fi = get_function(ctx, fn_oid, false);

	frame.fn = fi.get();
	frame.read_only = fi->read_only;
	ActiveCall	ac(fi.get());
	FramePush	fp(&frame);
	Isolate    *isolate = ctx->isolate;
	Isolate::Scope iscope(isolate);
	HandleScope hscope(isolate);
	Local<Context> context = ctx->context.Get(isolate);
	Context::Scope cscope(context);
	TryCatch	tc(isolate);
	JsRun		run(ctx);
	Local<Value> r;

	/* `this` is the global object, so the start proc can define globals */
	if (!fi->fn.Get(isolate)->Call(context, context->Global(), 0, nullptr).ToLocal(&r) || ctx->pending_error)
	{
		Outcome		out;

		MemoryContextSwitchTo(cxt);
		js_failure(ctx, tc, out, fi->name.c_str());
		finish_spi_after_error(&frame, cxt);
		throw PgError{out.edata, !out.rethrow};
	}
	finish_spi(&frame, cxt);
}

/* ---------------------------------------------------------------------------
 * SQL functions
 */

Datum
plv8_version(PG_FUNCTION_ARGS)
{
	PG_RETURN_TEXT_P(cstring_to_text(PLV8_VERSION));
}

Datum
plv8_reset(PG_FUNCTION_ARGS)
{
	Oid			user = GetUserId();
	auto		it = contexts->find(user);

	if (it == contexts->end())
		PG_RETURN_VOID();
	if (it->second->active > 0)
		ereport(ERROR, (errcode(ERRCODE_OBJECT_IN_USE),
						errmsg("cannot reset the plv8 context of the current user while it is running")));
	destroy_context(it->second);
	PG_RETURN_VOID();
}

Datum
plv8_info(PG_FUNCTION_ARGS)
{
	StringInfoData buf;
	bool		first = true;

	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (auto &kv : *contexts)
	{
		Plv8Context *ctx = kv.second;
		HeapStatistics hs;
		char	   *uname = GetUserNameFromId(ctx->user_id, true);

		{
			Isolate::Scope iscope(ctx->isolate);

			ctx->isolate->GetHeapStatistics(&hs);
		}
		if (!first)
			appendStringInfoString(&buf, ", ");
		first = false;
		appendStringInfoString(&buf, "{\"user\": ");
		escape_json(&buf, uname ? uname : "?");
		appendStringInfo(&buf,
						 ", \"functions\": %zu, \"total_heap_size\": %zu, \"used_heap_size\": %zu"
						 ", \"heap_size_limit\": %zu, \"external_memory\": %zu, \"malloced_memory\": %zu}",
						 ctx->functions.size(), hs.total_heap_size(), hs.used_heap_size(),
						 hs.heap_size_limit(), hs.external_memory(), hs.malloced_memory());
	}
	appendStringInfoChar(&buf, ']');
	PG_RETURN_TEXT_P(cstring_to_text(buf.data));
}
