/*
 * PostgreSQL errors <-> JS exceptions.
 */
#include "plv8_compat.h"

#include <cstring>

using namespace v8;

static void
set_str(Isolate *isolate, Local<Object> o, const char *key, const char *val)
{
	if (val)
		ignore_result(o->CreateDataProperty(isolate->GetCurrentContext(), js_str(isolate, key), js_str(isolate, val)));
}

/* A JS Error carrying the fields of a PostgreSQL error. */
Local<Value>
pg_error_to_js(Isolate *isolate, ErrorData *edata)
{
	Local<Value> err = Exception::Error(js_str(isolate, edata->message ? edata->message : "unknown error"));
	Local<Object> o = err.As<Object>();
	const char *code = unpack_sql_state(edata->sqlerrcode);

	set_str(isolate, o, "sqlerrcode", code);
	set_str(isolate, o, "code", code);
	set_str(isolate, o, "detail", edata->detail);
	set_str(isolate, o, "hint", edata->hint);
	set_str(isolate, o, "context", edata->context);
	set_str(isolate, o, "internalquery", edata->internalquery);
	set_str(isolate, o, "schema_name", edata->schema_name);
	set_str(isolate, o, "table_name", edata->table_name);
	set_str(isolate, o, "column_name", edata->column_name);
	set_str(isolate, o, "datatype_name", edata->datatype_name);
	set_str(isolate, o, "constraint_name", edata->constraint_name);
	return err;
}

void
throw_js_error(Isolate *isolate, const char *msg)
{
	isolate->ThrowException(Exception::Error(js_str(isolate, msg)));
}

void
throw_js_type_error(Isolate *isolate, const char *msg)
{
	isolate->ThrowException(Exception::TypeError(js_str(isolate, msg)));
}

/*
 * Cancel, statement timeout and shutdown must not be swallowed by a JS
 * try/catch, or a loop around plv8.execute() could never be stopped.
 */
bool
is_uncatchable_pg_error(ErrorData *edata)
{
	return ERRCODE_TO_CATEGORY(edata->sqlerrcode) == ERRCODE_OPERATOR_INTERVENTION ||
		edata->elevel >= FATAL;
}

/* Deep copy of an ErrorData into mcxt (CopyErrorData only copies out of ErrorContext). */
ErrorData *
copy_edata(ErrorData *e, MemoryContext mcxt)
{
	MemoryContext old = MemoryContextSwitchTo(mcxt);
	ErrorData  *n = (ErrorData *) palloc(sizeof(ErrorData));

	memcpy(n, e, sizeof(ErrorData));
#define DUP(f) if (n->f) n->f = pstrdup(n->f)
	DUP(message);
	DUP(detail);
	DUP(detail_log);
	DUP(hint);
	DUP(context);
	DUP(backtrace);
	DUP(schema_name);
	DUP(table_name);
	DUP(column_name);
	DUP(datatype_name);
	DUP(constraint_name);
	DUP(internalquery);
#undef DUP
	n->assoc_context = mcxt;
	MemoryContextSwitchTo(old);
	return n;
}

/*
 * A termination requested from inside a callback is only noticed at V8's next
 * interrupt check, which a short loop or straight-line code may never reach.
 * Entering any JS function performs that check, so call an empty one: the
 * termination then unwinds through every JS frame at once.
 */
void
terminate_now(Isolate *isolate)
{
	isolate->TerminateExecution();
	if (current_context && !current_context->noop.IsEmpty())
	{
		Local<Context> context = isolate->GetCurrentContext();

		ignore_result(current_context->noop.Get(isolate)->Call(context, Undefined(isolate), 0, nullptr));
	}
}

void
callback_exception(Isolate *isolate, const PgError &e)
{
	if (is_uncatchable_pg_error(e.edata) || isolate->IsExecutionTerminating())
	{
		if (current_context && !current_context->pending_error)
			current_context->pending_error = copy_edata(e.edata, TopMemoryContext);
		FreeErrorData(e.edata);
		terminate_now(isolate);
		return;
	}
	isolate->ThrowException(pg_error_to_js(isolate, e.edata));
	FreeErrorData(e.edata);
}

static char *
pstr(const std::string &s)
{
	char	   *r;

	PG_GUARD(r = pnstrdup(s.data(), s.size()));
	return r;
}

/* Property of a thrown object as a string, or empty when absent; never throws. */
static bool
prop_string(Isolate *isolate, Local<Object> o, const char *key, std::string &out)
{
	TryCatch	tc(isolate);
	Local<Value> v;

	if (!o->Get(isolate->GetCurrentContext(), js_str(isolate, key)).ToLocal(&v) ||
		v->IsNullOrUndefined())
		return false;
	try
	{
		out = js_to_stdstring(isolate, v);
	}
	catch (JsPending &)
	{
		return false;
	}
	return true;
}

static bool
valid_sqlstate(const std::string &s)
{
	if (s.size() != 5)
		return false;
	for (char c : s)
		if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z')))
			return false;
	return true;
}

ErrorData *
js_exception_to_edata(Isolate *isolate, TryCatch &try_catch, const char *fname)
{
	HandleScope scope(isolate);
	Local<Value> exc = try_catch.Exception();
	std::string message;
	ErrorData  *edata;

	PG_GUARD(edata = (ErrorData *) palloc0(sizeof(ErrorData)));
	edata->elevel = ERROR;
	edata->sqlerrcode = ERRCODE_INTERNAL_ERROR;

	{
		TryCatch	tc(isolate);

		try
		{
			message = js_to_stdstring(isolate, exc);
		}
		catch (JsPending &)
		{
			message = "unknown JavaScript exception";
		}
	}

	if (exc->IsObject())
	{
		Local<Object> o = exc.As<Object>();
		std::string s;

		/* a plain object thrown with a message reads better than "[object Object]" */
		if (!exc->IsNativeError() && message == "[object Object]" && prop_string(isolate, o, "message", s))
			message = s;
		/*
		 * The SQLSTATE: `sqlerrcode` (5 characters, as an SPI error carries it), else `code` as
		 * the genuine plv8 reads it (PostgreSQL's packed integer), else `code` as 5 characters.
		 * A number is never read as characters: 53400 packed is 16581, itself 5 digits.
		 */
		Local<Value> code;

		if (prop_string(isolate, o, "sqlerrcode", s) && valid_sqlstate(s))
			edata->sqlerrcode = MAKE_SQLSTATE(s[0], s[1], s[2], s[3], s[4]);
		else if (o->Get(isolate->GetCurrentContext(), js_str(isolate, "code")).ToLocal(&code) && code->IsNumber())
		{
			int32_t		packed = code->Int32Value(isolate->GetCurrentContext()).FromMaybe(0);

			if (packed > 0)
				edata->sqlerrcode = packed;
		}
		else if (prop_string(isolate, o, "code", s) && valid_sqlstate(s))
			edata->sqlerrcode = MAKE_SQLSTATE(s[0], s[1], s[2], s[3], s[4]);
		if (prop_string(isolate, o, "detail", s))
			edata->detail = pstr(s);
		if (prop_string(isolate, o, "hint", s))
			edata->hint = pstr(s);
		if (prop_string(isolate, o, "context", s))
			edata->context = pstr(s);
		if (prop_string(isolate, o, "schema_name", s))
			edata->schema_name = pstr(s);
		if (prop_string(isolate, o, "table_name", s))
			edata->table_name = pstr(s);
		if (prop_string(isolate, o, "column_name", s))
			edata->column_name = pstr(s);
		if (prop_string(isolate, o, "datatype_name", s))
			edata->datatype_name = pstr(s);
		if (prop_string(isolate, o, "constraint_name", s))
			edata->constraint_name = pstr(s);
	}
	if (message.compare(0, 7, "Error: ") == 0)
		message.erase(0, 7);
	edata->message = pstr(message);

	/* "f() LINE 3: <source line>", as plv8 reports it */
	Local<Message> msg = try_catch.Message();

	int			lineno = 0;

	if (!msg.IsEmpty())
		lineno = msg->GetLineNumber(isolate->GetCurrentContext()).FromMaybe(0);
	if (lineno <= 0)
	{
		/* thrown outside any script line: while converting arguments or the result */
		std::string ctx = std::string("plv8 function \"") + (fname ? fname : "?") + "\"";

		if (edata->context)
			ctx = std::string(edata->context) + "\n" + ctx;
		edata->context = pstr(ctx);
	}
	else
	{
		Local<Context> context = isolate->GetCurrentContext();
		std::string line = "?";
		std::string src;
		std::string name = "anonymous";
		Local<Value> res = msg->GetScriptResourceName();
		Local<v8::String> sl;

		if (!res.IsEmpty() && res->IsString())
			name = js_to_stdstring(isolate, res);
		if (msg->GetSourceLine(context).ToLocal(&sl))
			src = js_to_stdstring(isolate, sl);
		std::string ctx = name + "() LINE " + std::to_string(lineno) + ": " + src;

		if (edata->context)
			ctx = std::string(edata->context) + "\n" + ctx;
		edata->context = pstr(ctx);
	}
	return edata;
}
