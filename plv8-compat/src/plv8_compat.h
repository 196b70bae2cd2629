/*
 * plv8-compat shared declarations.
 *
 * Error discipline (the one rule everything here follows): PostgreSQL reports
 * errors with longjmp, V8 frames and C++ destructors must never be jumped
 * over.  Every PostgreSQL call that may ereport() is wrapped in PG_GUARD,
 * which turns the error into a C++ PgError exception.  C++ exceptions in turn
 * never cross V8 frames: V8 callbacks catch everything at their boundary and
 * turn it into a JS exception, and the SQL-callable entry points catch
 * everything, leave all V8 scopes, and only then ereport().
 */
#ifndef PLV8_COMPAT_H
#define PLV8_COMPAT_H

extern "C" {
#include "postgres.h"
#include "fmgr.h"
#include "funcapi.h"
#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/typcache.h"
}

#include <v8.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#define PLV8_VERSION "3.2.3"

/*
 * PostgreSQL 16 removed pg_proc_aclcheck (object_aclcheck takes the catalog) and gave
 * parseTypeString a soft-error context (a Node *) where it took a bool.
 */
#if PG_VERSION_NUM >= 160000
#define plv8_proc_aclcheck(fn_oid, role, mode) object_aclcheck(ProcedureRelationId, (fn_oid), (role), (mode))
#define PLV8_PARSE_TYPE_RAISES NULL
#else
#define plv8_proc_aclcheck(fn_oid, role, mode) pg_proc_aclcheck((fn_oid), (role), (mode))
#define PLV8_PARSE_TYPE_RAISES false
#endif

/* A PostgreSQL error, already copied out of ErrorContext and flushed. */
struct PgError
{
	ErrorData  *edata;
	bool		from_js = false;	/* built from a JS exception: ereport, don't ReThrowError */
};

/* A JS exception is pending in the isolate (or execution is terminating). */
struct JsPending
{
};

/*
 * Run a statement that may ereport(); convert the error into PgError.
 * The statement must not create C++ objects with destructors, nor call V8.
 * (Variadic so that other macros can pass statements containing commas on.)
 */
#define PG_GUARD(...) \
	do { \
		ErrorData  *volatile _pg_edata = NULL; \
		MemoryContext _pg_oldcxt = CurrentMemoryContext; \
		PG_TRY(); \
		{ \
			__VA_ARGS__; \
		} \
		PG_CATCH(); \
		{ \
			MemoryContextSwitchTo(_pg_oldcxt); \
			_pg_edata = CopyErrorData(); \
			FlushErrorState(); \
		} \
		PG_END_TRY(); \
		if (_pg_edata) \
			throw PgError{_pg_edata}; \
	} while (0)

/* V8 results we deliberately ignore (warn_unused_result ignores a (void) cast). */
template <typename T>
inline void
ignore_result(T &&)
{
}

/* Language of a function (may ereport: call inside PG_GUARD). */
static inline Oid
plv8_func_lang(Oid fn_oid)
{
	HeapTuple	tup = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn_oid));
	Oid			lang;

	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for function %u", fn_oid);
	lang = ((Form_pg_proc) GETSTRUCT(tup))->prolang;
	ReleaseSysCache(tup);
	return lang;
}

/* Category of a PostgreSQL type for conversion purposes. */
enum TypeKind
{
	TK_BOOL, TK_INT2, TK_INT4, TK_OID, TK_INT8, TK_FLOAT4, TK_FLOAT8,
	TK_NUMERIC, TK_TEXT, TK_DATE, TK_TIMESTAMP, TK_TIMESTAMPTZ, TK_JSON,
	TK_JSONB, TK_BYTEA, TK_ARRAY, TK_COMPOSITE, TK_OTHER
};

/*
 * Conversion information for one type.  Lives in the MemoryContext of its
 * owner (a compiled function, a plan, or one execute call).
 */
struct TypeInfo
{
	Oid			typid;
	int32		typmod;
	TypeKind	kind;
	int16		len;
	bool		byval;
	char		align;
	Oid			ioparam;
	Oid			infunc;
	Oid			outfunc;
	bool		in_ready;
	bool		out_ready;
	FmgrInfo	in;
	FmgrInfo	out;
	TypeInfo   *elem;			/* arrays */
	MemoryContext mcxt;
};

/* Build TypeInfo (palloc'd in mcxt); may throw PgError. */
TypeInfo   *typeinfo_create(Oid typid, int32 typmod, MemoryContext mcxt);

/* convert.cc */
v8::Local<v8::Value> datum_to_js(v8::Isolate *isolate, Datum d, bool isnull, TypeInfo *ti);
Datum		js_to_datum(v8::Isolate *isolate, v8::Local<v8::Value> v, bool *isnull, TypeInfo *ti);
v8::Local<v8::Object> tuple_to_js(v8::Isolate *isolate, HeapTupleHeader htup, TupleDesc tupdesc);
v8::Local<v8::Object> heaptuple_to_js(v8::Isolate *isolate, HeapTuple tup, TupleDesc tupdesc);
/* A row type with conversion info for each column. */
struct RowInfo
{
	TupleDesc	tupdesc;		/* private copy */
	TypeInfo  **cols;			/* NULL for dropped columns */
	uint64		tupdesc_id;		/* typcache identifier, for named row types */
};
RowInfo    *rowinfo_create(TupleDesc tupdesc, MemoryContext mcxt);
/* Fill values/nulls from a JS object having one property per (non-dropped) column. */
void		js_to_row(v8::Isolate *isolate, v8::Local<v8::Value> v, RowInfo *ri,
					  Datum *values, bool *nulls);
HeapTuple	js_to_heaptuple(v8::Isolate *isolate, v8::Local<v8::Value> v, RowInfo *ri);
v8::Local<v8::String> js_str(v8::Isolate *isolate, const char *s);
v8::Local<v8::String> js_str(v8::Isolate *isolate, const char *s, int len);
std::string js_to_stdstring(v8::Isolate *isolate, v8::Local<v8::Value> v);	/* String(v); throws JsPending */
v8::Local<v8::Array> spi_rows_to_js(v8::Isolate *isolate, SPITupleTable *tt, uint64 n);

/* Per-call state, one per active invocation of a plv8 function. */
struct FuncInfo;
struct CallFrame
{
	FuncInfo   *fn;				/* NULL for DO blocks */
	bool		read_only;
	bool		spi_connected;
	/* set-returning state */
	ReturnSetInfo *rsinfo;
	Tuplestorestate *tupstore;
	TupleDesc	tupdesc;		/* row type of the set */
	bool		scalar_set;
	TypeInfo   *set_elem;		/* scalar SRF element type */
	RowInfo    *set_row;		/* composite SRF row type */
	CallFrame  *prev;
};

/* One isolate + global context, per user id. */
struct Plv8Context
{
	Oid			user_id;
	v8::Isolate *isolate;
	v8::ArrayBuffer::Allocator *allocator;
	v8::Global<v8::Context> context;
	v8::Global<v8::ObjectTemplate> plan_template;
	v8::Global<v8::ObjectTemplate> cursor_template;
	v8::Global<v8::Function> noop;	/* see terminate_now() */
	std::unordered_map<Oid, std::shared_ptr<FuncInfo>> functions;
	int			active;			/* nesting depth of calls into this isolate */
	bool		oom;			/* near-heap-limit callback fired */
	size_t		heap_limit;
	ErrorData  *pending_error;	/* uncatchable PG error (cancel) to raise after V8 returns */
};

struct FuncInfo
{
	Oid			fn_oid;
	TransactionId xmin;
	ItemPointerData tid;
	uint64		validated_gen;
	std::string name;
	v8::Global<v8::Function> fn;
	MemoryContext mcxt;
	bool		is_trigger;
	bool		is_event_trigger;
	bool		retset;
	bool		read_only;
	int			nargs;
	TypeInfo  **argtypes;
	Oid			rettype;
	TypeKind	retkind;		/* TK_* of the result; TK_COMPOSITE for rows */
	bool		ret_void;
	bool		ret_record_dynamic;	/* RETURNS record without OUT params */
	TypeInfo   *ret;			/* scalar result / scalar set element */
	RowInfo    *ret_row;		/* OUT params / RETURNS TABLE (fixed), or named row type (cached) */
	MemoryContext ret_row_cxt;	/* owns a cached named-row ret_row (child of mcxt) */
	std::vector<MemoryContext> retired_rows;	/* replaced ret_row_cxt still in use by a running call */
	int			calls;			/* running invocations (recursion depth) */

	~FuncInfo();
};

/* plv8_compat.cc */
extern Plv8Context *current_context;	/* innermost context running JS */
extern CallFrame *current_frame;
extern int	plv8_memory_limit_mb;
extern int	plv8_execution_timeout_s;
std::shared_ptr<FuncInfo> get_function(Plv8Context *ctx, Oid fn_oid, bool for_validation);
void		ensure_spi_connected(void);
void		srf_put(v8::Isolate *isolate, CallFrame *frame, v8::Local<v8::Value> v);

/* plv8_object.cc */
void		install_plv8_object(Plv8Context *ctx, v8::Local<v8::Context> context);

/* errors.cc */
v8::Local<v8::Value> pg_error_to_js(v8::Isolate *isolate, ErrorData *edata);
/* Build an ErrorData from the exception in try_catch (context line uses fname). */
ErrorData  *js_exception_to_edata(v8::Isolate *isolate, v8::TryCatch &try_catch, const char *fname);
void		throw_js_error(v8::Isolate *isolate, const char *msg);
void		throw_js_type_error(v8::Isolate *isolate, const char *msg);
bool		is_uncatchable_pg_error(ErrorData *edata);
ErrorData  *copy_edata(ErrorData *e, MemoryContext mcxt);
/* Handle a C++ exception caught at a V8 callback boundary: sets the JS exception. */
void		callback_exception(v8::Isolate *isolate, const PgError &e);
void		terminate_now(v8::Isolate *isolate);

/* watchdog.cc */
void		watchdog_enter(v8::Isolate *isolate);
void		watchdog_leave(v8::Isolate *isolate);
/*
 * What runs from here on while JS is on the stack: PostgreSQL (a plv8.* callback,
 * where PostgreSQL and not the watchdog handles a pending cancel) or JS again
 * (a function the callback calls).  False when no JS runs: nothing to pop.
 */
bool		watchdog_push(bool postgres);
void		watchdog_pop(void);

/* watchdog_push for a scope. */
class WatchdogScope
{
  public:
	explicit WatchdogScope(bool postgres) : pushed_(watchdog_push(postgres)) {}
	~WatchdogScope()
	{
		if (pushed_)
			watchdog_pop();
	}
	WatchdogScope(const WatchdogScope &) = delete;
	WatchdogScope &operator=(const WatchdogScope &) = delete;

  private:
	bool		pushed_;
};
/* Why the watchdog terminated JS: 0 none, 1 interrupt pending, 2 execution timeout. */
int			watchdog_take_reason(void);

/*
 * Callbacks run the body in a subtransaction like PL/Python does; the PG
 * error context stack is cut so that the captured error carries only the
 * context lines of what ran inside (the outer lines get added once, when the
 * error finally leaves the function).
 */
class ErrorContextBarrier
{
  public:
	ErrorContextBarrier() : saved(error_context_stack) { error_context_stack = NULL; }
	~ErrorContextBarrier() { error_context_stack = saved; }
  private:
	ErrorContextCallback *saved;
};

#endif
