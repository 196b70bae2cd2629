/*
 * The `plv8` JS object: execute / prepare / cursor / subtransaction / elog /
 * find_function / quote_* / return_next / memory_usage, plus the elog level
 * globals.  Every function here is a V8 callback: see the error discipline in
 * plv8_compat.h.
 */
#include "plv8_compat.h"

extern "C" {
#include "catalog/pg_language.h"
#include "commands/proclang.h"
#include "nodes/params.h"
#include "parser/parse_param.h"
#include "parser/parse_type.h"
#include "utils/acl.h"
#include "utils/regproc.h"
}

#include <cstdlib>

using namespace v8;

/*
 * A scratch memory context per callback nesting level, reset when the
 * callback returns: a JS loop calling plv8.execute() a million times must not
 * accumulate garbage in the caller's context.
 */
static std::vector<MemoryContext> *cb_cxts;
static int	cb_depth = 0;

template <void (*F)(const FunctionCallbackInfo<Value> &)>
static void
guarded(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	MemoryContext old = CurrentMemoryContext;
	MemoryContext tmp = NULL;
	int			depth = cb_depth;

	/* errors raised in here carry only the context lines of what ran inside */
	ErrorContextBarrier barrier;

	/* an uncatchable error is on its way out: no more work until JS unwinds */
	if (current_context && current_context->pending_error)
	{
		terminate_now(isolate);
		return;
	}

	try
	{
		if (!cb_cxts)
			cb_cxts = new std::vector<MemoryContext>();
		if ((int) cb_cxts->size() <= depth)
		{
			MemoryContext c;

			PG_GUARD(c = AllocSetContextCreate(TopMemoryContext, "plv8 callback", ALLOCSET_DEFAULT_SIZES));
			cb_cxts->push_back(c);
		}
		tmp = (*cb_cxts)[depth];
		cb_depth = depth + 1;
		MemoryContextSwitchTo(tmp);
		WatchdogScope in_postgres(true);

		F(args);
	}
	catch (PgError &e)
	{
		/* edata lives in tmp; convert before the reset below */
		callback_exception(isolate, e);
	}
	catch (JsPending &)
	{
		/* the JS exception (or termination) is already pending */
	}
	catch (std::exception &e)
	{
		throw_js_error(isolate, e.what());
	}
	catch (...)
	{
		throw_js_error(isolate, "unexpected C++ exception in plv8");
	}
	MemoryContextSwitchTo(old);
	cb_depth = depth;
	if (tmp)
		MemoryContextReset(tmp);
}

/*
 * Run an SPI call.  The SPI functions that run the executor return in SPI's
 * per-procedure context ("SPI Proc", _SPI_end_call), which lives until
 * SPI_finish() at the end of the whole plv8 function call: go back to the
 * callback's scratch context, or whatever the callback allocates after the
 * call (converted rows, type info, ...) piles up there for every
 * plv8.execute() of a long loop.
 */
#define SPI_GUARD(...) \
	do { \
		MemoryContext _spi_cxt = CurrentMemoryContext; \
		PG_GUARD(__VA_ARGS__); \
		MemoryContextSwitchTo(_spi_cxt); \
	} while (0)

/*
 * An unsaved SPI plan (a child of "SPI Proc"): freed on every way out, the
 * error paths too, after the subtransaction declared later has ended.
 */
class TempPlan
{
  public:
	SPIPlanPtr	plan = NULL;
	~TempPlan()
	{
		if (plan)
		{
			try
			{
				SPI_GUARD(SPI_freeplan(plan));
			}
			catch (PgError &e)
			{
				FreeErrorData(e.edata);
			}
		}
	}
};

static Local<Context>
cur(Isolate *isolate)
{
	return isolate->GetCurrentContext();
}

static void
set_fn(Isolate *isolate, Local<Object> obj, const char *name, FunctionCallback cb)
{
	Local<Context> context = cur(isolate);

	ignore_result(obj->Set(context, js_str(isolate, name),
						FunctionTemplate::New(isolate, cb)->GetFunction(context).ToLocalChecked()));
}

static void
arg_error(Isolate *isolate, const char *msg)
{
	throw_js_type_error(isolate, msg);
	throw JsPending();
}

/* ---------------------------------------------------------------------------
 * Subtransactions (as PL/Python does it)
 */

class SubXact
{
  public:
	SubXact()
	{
		oldcxt_ = CurrentMemoryContext;
		oldowner_ = CurrentResourceOwner;
		ensure_spi_connected();
		PG_GUARD(BeginInternalSubTransaction(NULL));
		MemoryContextSwitchTo(oldcxt_);
		open_ = true;
	}
	void		commit()
	{
		open_ = false;
		PG_GUARD(ReleaseCurrentSubTransaction());
		MemoryContextSwitchTo(oldcxt_);
		CurrentResourceOwner = oldowner_;
	}
	void		rollback()
	{
		if (!open_)
			return;
		open_ = false;
		PG_GUARD(RollbackAndReleaseCurrentSubTransaction());
		MemoryContextSwitchTo(oldcxt_);
		CurrentResourceOwner = oldowner_;
	}
	~SubXact()
	{
		if (open_)
		{
			try
			{
				rollback();
			}
			catch (PgError &e)
			{
				FreeErrorData(e.edata);
			}
		}
	}
  private:
	MemoryContext oldcxt_;
	ResourceOwner oldowner_;
	bool		open_ = false;
};

/* ---------------------------------------------------------------------------
 * execute / prepare / cursors
 */

/* plv8.execute(sql, [a, b]) and plv8.execute(sql, a, b) */
static std::vector<Local<Value>>
collect_params(const FunctionCallbackInfo<Value> &args, int first)
{
	std::vector<Local<Value>> params;
	Local<Context> context = cur(args.GetIsolate());

	if (args.Length() == first + 1 && args[first]->IsArray())
	{
		Local<Array> a = args[first].As<Array>();

		for (uint32_t i = 0; i < a->Length(); i++)
		{
			Local<Value> v;

			if (!a->Get(context, i).ToLocal(&v))
				throw JsPending();
			params.push_back(v);
		}
	}
	else
	{
		for (int i = first; i < args.Length(); i++)
			params.push_back(args[i]);
	}
	return params;
}

static bool
read_only(void)
{
	return current_frame ? current_frame->read_only : false;
}

/* Rows for SELECT / RETURNING / row-returning utility statements, else the count. */
static Local<Value>
spi_result(Isolate *isolate, int rc)
{
	Local<Value> result;
	SPITupleTable *tt = SPI_tuptable;
	uint64		n = SPI_processed;

	if (rc < 0)
	{
		const char *s = SPI_result_code_string(rc);

		PG_GUARD(elog(ERROR, "SPI error: %s", s));
	}
	if (tt != NULL && tt->tupdesc != NULL)
	{
		/* the rows are copied into JS: free them now, not at SPI_finish */
		try
		{
			result = spi_rows_to_js(isolate, tt, n);
		}
		catch (...)
		{
			SPI_GUARD(SPI_freetuptable(tt));
			throw;
		}
		SPI_GUARD(SPI_freetuptable(tt));
	}
	else
	{
		if (tt != NULL)
			SPI_GUARD(SPI_freetuptable(tt));
		result = Number::New(isolate, (double) n);
	}
	return result;
}

struct VarParams
{
	Oid		   *types;
	int			n;
};

/*
 * The parser grows the parameter type array with repalloc(), which keeps a
 * chunk in its own context: start the array in ours (the callback's), or it is
 * palloc'd in SPI's executor context, which SPI_prepare_params() resets before
 * it returns -- vp.types would point into freed memory.
 */
static void
varparams_init(VarParams *vp)
{
	PG_GUARD(vp->types = (Oid *) palloc0(sizeof(Oid)));
	vp->n = 0;
}

static void
variable_param_setup(ParseState *pstate, void *arg)
{
	VarParams  *vp = (VarParams *) arg;

	setup_parse_variable_parameters(pstate, &vp->types, &vp->n);
}

static void
too_few(int want, int got)
{
	char		buf[160];

	snprintf(buf, sizeof(buf), "the query expects %d parameter%s, but %d argument%s given",
			 want, want == 1 ? "" : "s", got, got == 1 ? " was" : "s were");
	PG_GUARD(ereport(ERROR, (errcode(ERRCODE_UNDEFINED_PARAMETER), errmsg_internal("%s", buf))));
}

static void
plv8_execute(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();

	if (args.Length() < 1)
		arg_error(isolate, "plv8.execute() requires a SQL string");
	std::string sql = js_to_stdstring(isolate, args[0]);
	std::vector<Local<Value>> params = collect_params(args, 1);
	TempPlan	tp;
	SubXact		sx;
	VarParams	vp = {NULL, 0};
	ParamListInfo pli;
	int			rc;

	/* parameter types are whatever the parser deduces from the query */
	varparams_init(&vp);
	SPI_GUARD(tp.plan = SPI_prepare_params(sql.c_str(), variable_param_setup, &vp, 0);
			  if (!tp.plan)
			  elog(ERROR, "SPI_prepare_params failed: %s", SPI_result_code_string(SPI_result)));
	if ((int) params.size() < vp.n)
		too_few(vp.n, (int) params.size());
	PG_GUARD(pli = makeParamList(vp.n));
	for (int i = 0; i < vp.n; i++)
	{
		ParamExternData *prm = &pli->params[i];
		Oid			t = vp.types[i];

		prm->pflags = PARAM_FLAG_CONST;
		if (t == InvalidOid || t == UNKNOWNOID)
		{
			/* never resolved by the parser: an "unknown" literal takes text */
			prm->ptype = UNKNOWNOID;
			prm->isnull = params[i]->IsNullOrUndefined();
			if (!prm->isnull)
			{
				std::string s = js_to_stdstring(isolate, params[i]);

				PG_GUARD(prm->value = CStringGetDatum(pstrdup(s.c_str())));
			}
			else
				prm->value = (Datum) 0;
			continue;
		}
		TypeInfo   *ti = typeinfo_create(t, -1, CurrentMemoryContext);

		prm->ptype = t;
		prm->value = js_to_datum(isolate, params[i], &prm->isnull, ti);
	}
	SPI_GUARD(rc = SPI_execute_plan_with_paramlist(tp.plan, pli, read_only(), 0));
	Local<Value> result = spi_result(isolate, rc);

	sx.commit();
	args.GetReturnValue().Set(result);
}

struct PlanData
{
	SPIPlanPtr	plan;
	int			nargs;
	TypeInfo  **types;
	MemoryContext mcxt;
};

struct CursorData
{
	std::string portal;
};

/* The C++ object behind a plan or cursor wrapper, with errors for a foreign or released one */
template <typename T>
static T *
this_wrapped(const FunctionCallbackInfo<Value> &args, const char *not_one, const char *released)
{
	Local<Object> self = args.This();

	if (self->InternalFieldCount() < 1)
		arg_error(args.GetIsolate(), not_one);
	T		   *data = (T *) self->GetAlignedPointerFromInternalField(0);

	if (!data)
		arg_error(args.GetIsolate(), released);
	return data;
}

static PlanData *
this_plan(const FunctionCallbackInfo<Value> &args)
{
	return this_wrapped<PlanData>(args, "not a plv8 plan", "plan has been freed");
}

/* values/nulls for a plan call, checking the argument count */
static void
plan_args(Isolate *isolate, PlanData *pd, const std::vector<Local<Value>> &params,
		  Datum **values, char **nulls)
{
	if ((int) params.size() != pd->nargs)
	{
		char		buf[160];

		snprintf(buf, sizeof(buf), "plan expects %d argument%s, but %d %s given",
				 pd->nargs, pd->nargs == 1 ? "" : "s", (int) params.size(),
				 params.size() == 1 ? "was" : "were");
		PG_GUARD(ereport(ERROR, (errcode(ERRCODE_UNDEFINED_PARAMETER), errmsg_internal("%s", buf))));
	}
	PG_GUARD(*values = (Datum *) palloc0(sizeof(Datum) * (pd->nargs + 1));
			 *nulls = (char *) palloc0(pd->nargs + 1));
	for (int i = 0; i < pd->nargs; i++)
	{
		bool		isnull;

		(*values)[i] = js_to_datum(isolate, params[i], &isnull, pd->types[i]);
		(*nulls)[i] = isnull ? 'n' : ' ';
	}
}

static void
plan_execute(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	PlanData   *pd = this_plan(args);
	std::vector<Local<Value>> params = collect_params(args, 0);
	SubXact		sx;
	Datum	   *values;
	char	   *nulls;
	int			rc;

	plan_args(isolate, pd, params, &values, &nulls);
	SPI_GUARD(rc = SPI_execute_plan(pd->plan, values, nulls, read_only(), 0));
	Local<Value> result = spi_result(isolate, rc);

	sx.commit();
	args.GetReturnValue().Set(result);
}

static void
plan_cursor(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	Local<Context> context = cur(isolate);
	PlanData   *pd = this_plan(args);
	std::vector<Local<Value>> params = collect_params(args, 0);
	SubXact		sx;
	Datum	   *values;
	char	   *nulls;
	Portal		portal;

	plan_args(isolate, pd, params, &values, &nulls);
	SPI_GUARD(portal = SPI_cursor_open(NULL, pd->plan, values, nulls, read_only()));
	sx.commit();

	Local<Object> cursor = current_context->cursor_template.Get(isolate)->NewInstance(context).ToLocalChecked();
	CursorData *cd = new CursorData();

	cd->portal = portal->name;
	cursor->SetAlignedPointerInInternalField(0, cd);
	args.GetReturnValue().Set(cursor);
}

static void
plan_free(const FunctionCallbackInfo<Value> &args)
{
	PlanData   *pd = this_plan(args);

	args.This()->SetAlignedPointerInInternalField(0, nullptr);
	SPI_GUARD(SPI_freeplan(pd->plan);
			  MemoryContextDelete(pd->mcxt));
	delete pd;
}

static void
plv8_prepare(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	Local<Context> context = cur(isolate);

	if (args.Length() < 1)
		arg_error(isolate, "plv8.prepare() requires a SQL string");
	std::string sql = js_to_stdstring(isolate, args[0]);
	std::vector<std::string> typenames;

	if (args.Length() > 1 && !args[1]->IsNullOrUndefined())
	{
		if (args[1]->IsArray())
		{
			Local<Array> a = args[1].As<Array>();

			for (uint32_t i = 0; i < a->Length(); i++)
			{
				Local<Value> v;

				if (!a->Get(context, i).ToLocal(&v))
					throw JsPending();
				typenames.push_back(js_to_stdstring(isolate, v));
			}
		}
		else
		{
			for (int i = 1; i < args.Length(); i++)
				typenames.push_back(js_to_stdstring(isolate, args[i]));
		}
	}

	SubXact		sx;
	int			n = (int) typenames.size();
	Oid		   *types;
	SPIPlanPtr	plan;

	PG_GUARD(types = (Oid *) palloc0(sizeof(Oid) * (n + 1)));
	for (int i = 0; i < n; i++)
	{
		int32		typmod;

		PG_GUARD(parseTypeString(typenames[i].c_str(), &types[i], &typmod, PLV8_PARSE_TYPE_RAISES));
	}
	if (typenames.empty())
	{
		/* no types given: deduce them once, then prepare with what was found */
		VarParams	vp = {NULL, 0};
		TempPlan	probe;

		varparams_init(&vp);
		SPI_GUARD(probe.plan = SPI_prepare_params(sql.c_str(), variable_param_setup, &vp, 0);
				  if (!probe.plan)
				  elog(ERROR, "SPI_prepare_params failed: %s", SPI_result_code_string(SPI_result)));
		n = vp.n;
		PG_GUARD(types = (Oid *) palloc0(sizeof(Oid) * (n + 1)));
		for (int i = 0; i < n; i++)
			types[i] = (vp.types[i] == InvalidOid || vp.types[i] == UNKNOWNOID) ? TEXTOID : vp.types[i];
	}
	SPI_GUARD(plan = SPI_prepare(sql.c_str(), n, types);
			  if (!plan)
			  elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
			  SPI_keepplan(plan));
	sx.commit();

	PlanData   *pd = new PlanData();

	pd->plan = plan;
	pd->nargs = n;
	try
	{
		PG_GUARD(pd->mcxt = AllocSetContextCreate(TopMemoryContext, "plv8 plan", ALLOCSET_SMALL_SIZES);
				 pd->types = (TypeInfo **) MemoryContextAllocZero(pd->mcxt, sizeof(TypeInfo *) * (n + 1)));
		for (int i = 0; i < n; i++)
			pd->types[i] = typeinfo_create(types[i], -1, pd->mcxt);
	}
	catch (...)
	{
		SPI_freeplan(plan);
		if (pd->mcxt)
			MemoryContextDelete(pd->mcxt);
		delete pd;
		throw;
	}
	Local<Object> obj = current_context->plan_template.Get(isolate)->NewInstance(context).ToLocalChecked();

	obj->SetAlignedPointerInInternalField(0, pd);
	args.GetReturnValue().Set(obj);
}

static CursorData *
this_cursor(const FunctionCallbackInfo<Value> &args)
{
	return this_wrapped<CursorData>(args, "not a plv8 cursor", "cursor is closed");
}

static Portal
find_portal(CursorData *cd)
{
	Portal		p;

	SPI_GUARD(p = SPI_cursor_find(cd->portal.c_str());
			  if (!p)
			 ereport(ERROR, (errcode(ERRCODE_INVALID_CURSOR_NAME),
							 errmsg("cursor \"%s\" does not exist", cd->portal.c_str()))));
	return p;
}

static void
cursor_fetch(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	CursorData *cd = this_cursor(args);
	bool		single = args.Length() < 1 || args[0]->IsUndefined();
	long		count = 1;

	if (!single)
	{
		double		d = args[0]->NumberValue(cur(isolate)).FromMaybe(0);

		count = (long) d;
	}
	SubXact		sx;
	Portal		portal = find_portal(cd);

	SPI_GUARD(SPI_cursor_fetch(portal, count >= 0, count >= 0 ? count : -count));
	Local<Value> rows = spi_result(isolate, SPI_OK_FETCH);

	sx.commit();
	if (single)
	{
		Local<Array> a = rows.As<Array>();

		if (a->Length() == 0)
			args.GetReturnValue().SetUndefined();
		else
			args.GetReturnValue().Set(a->Get(cur(isolate), 0).ToLocalChecked());
	}
	else
		args.GetReturnValue().Set(rows);
}

static void
cursor_move(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	CursorData *cd = this_cursor(args);
	long		count = 1;

	if (args.Length() >= 1)
		count = (long) args[0]->NumberValue(cur(isolate)).FromMaybe(0);
	SubXact		sx;
	Portal		portal = find_portal(cd);

	SPI_GUARD(SPI_cursor_move(portal, count >= 0, count >= 0 ? count : -count));
	sx.commit();
}

static void
cursor_close(const FunctionCallbackInfo<Value> &args)
{
	CursorData *cd = this_cursor(args);
	Portal		p;

	args.This()->SetAlignedPointerInInternalField(0, nullptr);
	std::unique_ptr<CursorData> owner(cd);
	SPI_GUARD(p = SPI_cursor_find(cd->portal.c_str());
			  if (p)
			  SPI_cursor_close(p));
}

/* ---------------------------------------------------------------------------
 * subtransaction, elog, find_function, quoting, return_next, memory_usage
 */

static void
plv8_subtransaction(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	Local<Context> context = cur(isolate);

	if (args.Length() < 1 || !args[0]->IsFunction())
		arg_error(isolate, "plv8.subtransaction() requires a function");
	SubXact		sx;
	Local<Value> r;

	{
		TryCatch	tc(isolate);
		bool		called;

		{
			WatchdogScope in_js(false);

			called = args[0].As<Function>()->Call(context, context->Global(), 0, nullptr).ToLocal(&r);
		}
		if (!called)
		{
			/* undo the work, then let the exception continue */
			sx.rollback();
			if (tc.CanContinue() && !tc.HasTerminated())
				tc.ReThrow();
			throw JsPending();
		}
	}
	sx.commit();
	args.GetReturnValue().Set(r);
}

static std::string
join_args(const FunctionCallbackInfo<Value> &args, int first)
{
	std::string msg;

	for (int i = first; i < args.Length(); i++)
	{
		if (i > first)
			msg += " ";
		msg += js_to_stdstring(args.GetIsolate(), args[i]);
	}
	return msg;
}

static void
plv8_elog(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();

	if (args.Length() < 2)
		arg_error(isolate, "plv8.elog() requires a level and a message");
	int			level = args[0]->Int32Value(cur(isolate)).FromMaybe(-1);
	std::string msg = join_args(args, 1);

	switch (level)
	{
		case DEBUG5:
		case DEBUG4:
		case DEBUG3:
		case DEBUG2:
		case DEBUG1:
		case LOG:
		case INFO:
		case NOTICE:
		case WARNING:
			PG_GUARD(ereport(level, (errmsg_internal("%s", msg.c_str()))));
			return;
		case ERROR:
			/* a catchable JS error; uncaught, it becomes this ERROR */
			throw_js_error(isolate, msg.c_str());
			return;
		default:
			arg_error(isolate, "plv8.elog(): invalid error level");
	}
}

/*
 * As in plv8 (plv8_func.cc, plv8_FindFunction): a name that does not resolve is
 * an error; a function the user may not execute is a WARNING and the result is
 * undefined; one in another language is an error.
 */
static void
plv8_find_function(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();

	if (args.Length() < 1)
		arg_error(isolate, "plv8.find_function() requires a function name or signature");
	std::string name = js_to_stdstring(isolate, args[0]);
	Oid			fn_oid;
	Oid			lang;
	Oid			plv8_lang;
	AclResult	acl;
	const char *cname = name.c_str();

	PG_GUARD(if (strchr(cname, '('))
			 fn_oid = DatumGetObjectId(DirectFunctionCall1(regprocedurein, CStringGetDatum(cname)));
			 else
			 fn_oid = DatumGetObjectId(DirectFunctionCall1(regprocin, CStringGetDatum(cname)));
			 acl = plv8_proc_aclcheck(fn_oid, GetUserId(), ACL_EXECUTE));
	if (acl != ACLCHECK_OK)
	{
		PG_GUARD(ereport(WARNING, (errmsg("failed to find or no permission for js function %s", cname))));
		args.GetReturnValue().SetUndefined();
		return;
	}
	PG_GUARD(lang = plv8_func_lang(fn_oid);
			 plv8_lang = get_language_oid("plv8", false);
			 if (lang != plv8_lang)
			 ereport(ERROR, (errcode(ERRCODE_WRONG_OBJECT_TYPE),
							 errmsg("javascript function is not found for \"%s\"", cname))));
	std::shared_ptr<FuncInfo> fi = get_function(current_context, fn_oid, false);

	args.GetReturnValue().Set(fi->fn.Get(isolate));
}

/*
 * As in plv8: no argument gives undefined; quote_literal quotes String(v), so
 * null is 'null'; quote_nullable makes null and undefined the keyword NULL.
 */
static void
quote_value(const FunctionCallbackInfo<Value> &args, bool null_as_keyword)
{
	Isolate    *isolate = args.GetIsolate();

	if (args.Length() < 1)
	{
		args.GetReturnValue().SetUndefined();
		return;
	}
	if (null_as_keyword && args[0]->IsNullOrUndefined())
	{
		args.GetReturnValue().Set(js_str(isolate, "NULL"));
		return;
	}
	std::string s = js_to_stdstring(isolate, args[0]);
	char	   *q;

	PG_GUARD(q = quote_literal_cstr(s.c_str()));
	args.GetReturnValue().Set(js_str(isolate, q));
}

static void
plv8_quote_literal(const FunctionCallbackInfo<Value> &args)
{
	quote_value(args, false);
}

static void
plv8_quote_nullable(const FunctionCallbackInfo<Value> &args)
{
	quote_value(args, true);
}

static void
plv8_quote_ident(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();

	if (args.Length() < 1)
	{
		args.GetReturnValue().SetUndefined();
		return;
	}
	std::string s = js_to_stdstring(isolate, args[0]);
	const char *q;

	PG_GUARD(q = quote_identifier(s.c_str()));
	args.GetReturnValue().Set(js_str(isolate, q));
}

static void
plv8_return_next(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	CallFrame  *f = current_frame;

	if (!f || !f->tupstore)
	{
		throw_js_error(isolate, "return_next called in context that cannot accept a set");
		return;
	}
	srf_put(isolate, f, args.Length() > 0 ? args[0] : Undefined(isolate).As<Value>());
}

static void
plv8_memory_usage(const FunctionCallbackInfo<Value> &args)
{
	Isolate    *isolate = args.GetIsolate();
	Local<Context> context = cur(isolate);
	HeapStatistics hs;
	Local<Object> o = Object::New(isolate);

	isolate->GetHeapStatistics(&hs);
#define PUT(k, v) ignore_result(o->Set(context, js_str(isolate, k), Number::New(isolate, (double) (v))))
	PUT("total_heap_size", hs.total_heap_size());
	PUT("total_physical_size", hs.total_physical_size());
	PUT("used_heap_size", hs.used_heap_size());
	PUT("heap_size_limit", hs.heap_size_limit());
	PUT("external_memory", hs.external_memory());
	PUT("malloced_memory", hs.malloced_memory());
#undef PUT
	args.GetReturnValue().Set(o);
}

void
install_plv8_object(Plv8Context *ctx, Local<Context> context)
{
	Isolate    *isolate = ctx->isolate;
	Local<Object> global = context->Global();
	Local<Object> plv8 = Object::New(isolate);

	set_fn(isolate, plv8, "execute", guarded<plv8_execute>);
	set_fn(isolate, plv8, "prepare", guarded<plv8_prepare>);
	set_fn(isolate, plv8, "subtransaction", guarded<plv8_subtransaction>);
	set_fn(isolate, plv8, "elog", guarded<plv8_elog>);
	set_fn(isolate, plv8, "find_function", guarded<plv8_find_function>);
	set_fn(isolate, plv8, "quote_literal", guarded<plv8_quote_literal>);
	set_fn(isolate, plv8, "quote_nullable", guarded<plv8_quote_nullable>);
	set_fn(isolate, plv8, "quote_ident", guarded<plv8_quote_ident>);
	set_fn(isolate, plv8, "return_next", guarded<plv8_return_next>);
	set_fn(isolate, plv8, "memory_usage", guarded<plv8_memory_usage>);
	ignore_result(plv8->Set(context, js_str(isolate, "version"), js_str(isolate, PLV8_VERSION)));
	ignore_result(global->Set(context, js_str(isolate, "plv8"), plv8));

	static const struct
	{
		const char *name;
		int			level;
	}			levels[] = {
		{"DEBUG5", DEBUG5}, {"DEBUG4", DEBUG4}, {"DEBUG3", DEBUG3}, {"DEBUG2", DEBUG2},
		{"DEBUG1", DEBUG1}, {"LOG", LOG}, {"INFO", INFO}, {"NOTICE", NOTICE},
		{"WARNING", WARNING}, {"ERROR", ERROR},
	};

	for (auto &l : levels)
		ignore_result(global->Set(context, js_str(isolate, l.name), v8::Integer::New(isolate, l.level)));

	Local<ObjectTemplate> plan = ObjectTemplate::New(isolate);

	plan->SetInternalFieldCount(1);
	plan->Set(isolate, "execute", FunctionTemplate::New(isolate, guarded<plan_execute>));
	plan->Set(isolate, "cursor", FunctionTemplate::New(isolate, guarded<plan_cursor>));
	plan->Set(isolate, "free", FunctionTemplate::New(isolate, guarded<plan_free>));
	ctx->plan_template.Reset(isolate, plan);

	Local<ObjectTemplate> cursor = ObjectTemplate::New(isolate);

	cursor->SetInternalFieldCount(1);
	cursor->Set(isolate, "fetch", FunctionTemplate::New(isolate, guarded<cursor_fetch>));
	cursor->Set(isolate, "move", FunctionTemplate::New(isolate, guarded<cursor_move>));
	cursor->Set(isolate, "close", FunctionTemplate::New(isolate, guarded<cursor_close>));
	ctx->cursor_template.Reset(isolate, cursor);
}
