/*
 * Conversion between PostgreSQL datums and JS values (see
 * shared/plv8-compat.md, "Type mapping").
 */
#include "plv8_compat.h"

extern "C" {
#include "catalog/pg_type.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "utils/fmgroids.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "mb/pg_wchar.h"
}

#include <cmath>
#include <cstring>

using namespace v8;

/* Milliseconds between the Unix epoch and the PostgreSQL epoch (2000-01-01). */
static const double EPOCH_DIFF_MS =
	(double) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * 86400000.0;

[[noreturn]] static void
pg_throw(int code, const char *msg)
{
	PG_GUARD(ereport(ERROR, (errcode(code), errmsg_internal("%s", msg))));
	abort();					/* not reached */
}

Local<v8::String>
js_str(Isolate *isolate, const char *s)
{
	return v8::String::NewFromUtf8(isolate, s ? s : "").ToLocalChecked();
}

Local<v8::String>
js_str(Isolate *isolate, const char *s, int len)
{
	return v8::String::NewFromUtf8(isolate, s, NewStringType::kNormal, len).ToLocalChecked();
}

/* String(v) as UTF-8; lone surrogates become U+FFFD so the result is valid UTF-8. */
std::string
js_to_stdstring(Isolate *isolate, Local<Value> v)
{
	Local<v8::String> s;

	if (v->IsString())
		s = v.As<v8::String>();
	else if (v->IsSymbol())
	{
		/* String(symbol) works, symbol.toString() via ToString would throw */
		Local<Value> d = v.As<Symbol>()->Description(isolate);

		s = v8::String::Concat(isolate, js_str(isolate, "Symbol("),
							   v8::String::Concat(isolate, d->IsString() ? d.As<v8::String>() : js_str(isolate, ""),
												  js_str(isolate, ")")));
	}
	else if (!v->ToString(isolate->GetCurrentContext()).ToLocal(&s))
		throw JsPending();
	std::string out;
	int			len = s->Utf8Length(isolate);

	out.resize(len);
	s->WriteUtf8(isolate, &out[0], len, nullptr,
				 v8::String::NO_NULL_TERMINATION | v8::String::REPLACE_INVALID_UTF8);
	return out;
}

/* PostgreSQL text cannot hold NUL; say so instead of silently truncating. */
static void
check_no_nul(const std::string &s)
{
	if (memchr(s.data(), 0, s.size()) != NULL)
		pg_throw(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
				 "JavaScript string contains a NUL character (\\u0000), which PostgreSQL text cannot store");
}

static TypeInfo *
typeinfo_create_pg(Oid typid, int32 typmod, MemoryContext mcxt)
{
	TypeInfo   *ti = (TypeInfo *) MemoryContextAllocZero(mcxt, sizeof(TypeInfo));
	HeapTuple	tup;
	Form_pg_type t;
	char		typtype;
	Oid			elem;
	bool		is_array;

	ti->typid = typid;
	ti->typmod = typmod;
	ti->mcxt = mcxt;
	tup = SearchSysCache1(TYPEOID, ObjectIdGetDatum(typid));
	if (!HeapTupleIsValid(tup))
		elog(ERROR, "cache lookup failed for type %u", typid);
	t = (Form_pg_type) GETSTRUCT(tup);
	ti->len = t->typlen;
	ti->byval = t->typbyval;
	ti->align = t->typalign;
	ti->infunc = t->typinput;
	ti->outfunc = t->typoutput;
	ti->ioparam = getTypeIOParam(tup);
	typtype = t->typtype;
	elem = t->typelem;
	is_array = IsTrueArrayType(t);
	ReleaseSysCache(tup);

	switch (typid)
	{
		case BOOLOID: ti->kind = TK_BOOL; break;
		case INT2OID: ti->kind = TK_INT2; break;
		case INT4OID: ti->kind = TK_INT4; break;
		case OIDOID: ti->kind = TK_OID; break;
		case INT8OID: ti->kind = TK_INT8; break;
		case FLOAT4OID: ti->kind = TK_FLOAT4; break;
		case FLOAT8OID: ti->kind = TK_FLOAT8; break;
		case NUMERICOID: ti->kind = TK_NUMERIC; break;
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID: ti->kind = TK_TEXT; break;
		case DATEOID: ti->kind = TK_DATE; break;
		case TIMESTAMPOID: ti->kind = TK_TIMESTAMP; break;
		case TIMESTAMPTZOID: ti->kind = TK_TIMESTAMPTZ; break;
		case JSONOID: ti->kind = TK_JSON; break;
		case JSONBOID: ti->kind = TK_JSONB; break;
		case BYTEAOID: ti->kind = TK_BYTEA; break;
		case RECORDOID: ti->kind = TK_COMPOSITE; break;
		default:
			if (typtype == TYPTYPE_DOMAIN)
				ti->kind = TK_OTHER;	/* domains travel as their text form */
			else if (typtype == TYPTYPE_COMPOSITE)
				ti->kind = TK_COMPOSITE;
			else if (is_array)
			{
				ti->kind = TK_ARRAY;
				ti->elem = typeinfo_create_pg(elem, typmod, mcxt);
			}
			else
				ti->kind = TK_OTHER;
	}
	return ti;
}

TypeInfo *
typeinfo_create(Oid typid, int32 typmod, MemoryContext mcxt)
{
	TypeInfo   *ti;

	PG_GUARD(ti = typeinfo_create_pg(typid, typmod, mcxt));
	return ti;
}

static void
ensure_out(TypeInfo *ti)
{
	if (!ti->out_ready)
	{
		PG_GUARD(fmgr_info_cxt(ti->outfunc, &ti->out, ti->mcxt));
		ti->out_ready = true;
	}
}

static void
ensure_in(TypeInfo *ti)
{
	if (!ti->in_ready)
	{
		PG_GUARD(fmgr_info_cxt(ti->infunc, &ti->in, ti->mcxt));
		ti->in_ready = true;
	}
}

static Local<Value>
parse_json(Isolate *isolate, const char *s, int len)
{
	Local<Value> v;

	if (!JSON::Parse(isolate->GetCurrentContext(), js_str(isolate, s, len)).ToLocal(&v))
		throw JsPending();
	return v;
}

/* Column conversion state for rows of one tuple descriptor. */
struct RowConv
{
	TupleDesc	tupdesc;
	std::vector<TypeInfo *> cols;
	std::vector<Local<v8::String>> names;
};

static void
rowconv_init(Isolate *isolate, RowConv &rc, TupleDesc tupdesc)
{
	rc.tupdesc = tupdesc;
	rc.cols.resize(tupdesc->natts);
	rc.names.resize(tupdesc->natts);
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attisdropped)
		{
			rc.cols[i] = NULL;
			continue;
		}
		rc.cols[i] = typeinfo_create(att->atttypid, att->atttypmod, CurrentMemoryContext);
		rc.names[i] = js_str(isolate, NameStr(att->attname));
	}
}

static Local<Object>
row_to_js(Isolate *isolate, RowConv &rc, HeapTuple tup)
{
	Local<Context> context = isolate->GetCurrentContext();
	int			natts = rc.tupdesc->natts;
	Datum	   *values;
	bool	   *nulls;
	Local<Object> obj = Object::New(isolate);

	PG_GUARD(values = (Datum *) palloc(sizeof(Datum) * (natts + 1));
			 nulls = (bool *) palloc(sizeof(bool) * (natts + 1));
			 heap_deform_tuple(tup, rc.tupdesc, values, nulls));
	for (int i = 0; i < natts; i++)
	{
		if (!rc.cols[i])
			continue;
		if (obj->CreateDataProperty(context, rc.names[i],
									datum_to_js(isolate, values[i], nulls[i], rc.cols[i])).IsNothing())
			throw JsPending();
	}
	pfree(values);
	pfree(nulls);
	return obj;
}

Local<Object>
heaptuple_to_js(Isolate *isolate, HeapTuple tup, TupleDesc tupdesc)
{
	RowConv		rc;

	rowconv_init(isolate, rc, tupdesc);
	return row_to_js(isolate, rc, tup);
}

Local<Object>
tuple_to_js(Isolate *isolate, HeapTupleHeader htup, TupleDesc tupdesc)
{
	HeapTupleData tmptup;

	tmptup.t_len = HeapTupleHeaderGetDatumLength(htup);
	ItemPointerSetInvalid(&(tmptup.t_self));
	tmptup.t_tableOid = InvalidOid;
	tmptup.t_data = htup;
	return heaptuple_to_js(isolate, &tmptup, tupdesc);
}

Local<Array>
spi_rows_to_js(Isolate *isolate, SPITupleTable *tt, uint64 n)
{
	Local<Context> context = isolate->GetCurrentContext();
	RowConv		rc;
	Local<Array> rows = Array::New(isolate, (int) n);

	rowconv_init(isolate, rc, tt->tupdesc);
	for (uint64 i = 0; i < n; i++)
	{
		HandleScope scope(isolate);

		if (rows->Set(context, (uint32_t) i, row_to_js(isolate, rc, tt->vals[i])).IsNothing())
			throw JsPending();
	}
	return rows;
}

static Local<Value>
composite_to_js(Isolate *isolate, Datum d)
{
	HeapTupleHeader htup;
	TupleDesc	tupdesc;

	PG_GUARD(htup = DatumGetHeapTupleHeader(d);
			 tupdesc = lookup_rowtype_tupdesc(HeapTupleHeaderGetTypeId(htup),
											  HeapTupleHeaderGetTypMod(htup)));
	try
	{
		Local<Object> obj = tuple_to_js(isolate, htup, tupdesc);

		ReleaseTupleDesc(tupdesc);
		return obj;
	}
	catch (...)
	{
		ReleaseTupleDesc(tupdesc);
		throw;
	}
}

static Local<Value>
array_to_js(Isolate *isolate, Datum d, TypeInfo *ti)
{
	Local<Context> context = isolate->GetCurrentContext();
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int			n;
	TypeInfo   *et = ti->elem;

	/* Multi-dimensional arrays are flattened, as plv8 does. */
	PG_GUARD(arr = DatumGetArrayTypeP(d);
			 deconstruct_array(arr, ARR_ELEMTYPE(arr), et->len, et->byval, et->align,
							   &elems, &nulls, &n));
	Local<Array> result = Array::New(isolate, n);

	for (int i = 0; i < n; i++)
	{
		if (result->Set(context, i, datum_to_js(isolate, elems[i], nulls[i], et)).IsNothing())
			throw JsPending();
	}
	pfree(elems);
	pfree(nulls);
	return result;
}

static void
free_backing(void *data, size_t length, void *allocator)
{
	((ArrayBuffer::Allocator *) allocator)->Free(data, length);
}

/*
 * An ArrayBuffer of len bytes from the context's allocator, so that it counts
 * toward plv8.memory_limit.  Over the limit this throws the RangeError that
 * `new ArrayBuffer(len)` would throw (ArrayBuffer::New would abort instead).
 */
static Local<ArrayBuffer>
new_array_buffer(Isolate *isolate, size_t len)
{
	ArrayBuffer::Allocator *allocator = current_context ? current_context->allocator : nullptr;
	void	   *data;

	if (len == 0 || !allocator)
		return ArrayBuffer::New(isolate, len);
	data = allocator->AllocateUninitialized(len);
	if (!data)
	{
		/* what V8 does before giving up: collect garbage, try again */
		isolate->LowMemoryNotification();
		data = allocator->AllocateUninitialized(len);
	}
	if (!data)
	{
		isolate->ThrowException(Exception::RangeError(js_str(isolate, "Array buffer allocation failed")));
		throw JsPending();
	}
	std::shared_ptr<BackingStore> bs = ArrayBuffer::NewBackingStore(data, len, free_backing, allocator);

	return ArrayBuffer::New(isolate, bs);
}

Local<Value>
datum_to_js(Isolate *isolate, Datum d, bool isnull, TypeInfo *ti)
{
	if (isnull)
		return Null(isolate);

	switch (ti->kind)
	{
		case TK_BOOL:
			return v8::Boolean::New(isolate, DatumGetBool(d));
		case TK_INT2:
			return v8::Integer::New(isolate, DatumGetInt16(d));
		case TK_INT4:
			return v8::Integer::New(isolate, DatumGetInt32(d));
		case TK_OID:
			return v8::Integer::NewFromUnsigned(isolate, DatumGetObjectId(d));
		case TK_INT8:
			return BigInt::New(isolate, DatumGetInt64(d));
		case TK_FLOAT4:
			return Number::New(isolate, DatumGetFloat4(d));
		case TK_FLOAT8:
			return Number::New(isolate, DatumGetFloat8(d));
		case TK_NUMERIC:
			{
				char	   *s;
				double		v;

				PG_GUARD(s = DatumGetCString(DirectFunctionCall1(numeric_out, d)));
				v = strtod(s, NULL);
				pfree(s);
				return Number::New(isolate, v);
			}
		case TK_TEXT:
			{
				text	   *t;
				Local<v8::String> s;

				PG_GUARD(t = DatumGetTextPP(d));
				s = js_str(isolate, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
				if ((Pointer) t != DatumGetPointer(d))
					pfree(t);
				return s;
			}
		case TK_DATE:
			{
				DateADT		date = DatumGetDateADT(d);
				double		ms;

				/* A date is midnight UTC of that day, as in plv8. */
				if (DATE_NOT_FINITE(date))
					ms = std::nan("");
				else
					ms = (double) date * 86400000.0 + EPOCH_DIFF_MS;
				return Date::New(isolate->GetCurrentContext(), ms).ToLocalChecked();
			}
		case TK_TIMESTAMP:
		case TK_TIMESTAMPTZ:
			{
				/* timestamp (without zone) is read as UTC wall time, as in plv8. */
				int64		ts = DatumGetInt64(d);
				double		ms;

				if (TIMESTAMP_NOT_FINITE(ts))
					ms = std::nan("");
				else
					ms = (double) ts / 1000.0 + EPOCH_DIFF_MS;
				return Date::New(isolate->GetCurrentContext(), ms).ToLocalChecked();
			}
		case TK_JSON:
			{
				text	   *t;

				PG_GUARD(t = DatumGetTextPP(d));
				Local<Value> v = parse_json(isolate, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));

				if ((Pointer) t != DatumGetPointer(d))
					pfree(t);
				return v;
			}
		case TK_JSONB:
			{
				char	   *s;

				PG_GUARD(Jsonb *jb = DatumGetJsonbP(d);
						 s = JsonbToCString(NULL, &jb->root, VARSIZE(jb)));
				Local<Value> v = parse_json(isolate, s, strlen(s));

				pfree(s);
				return v;
			}
		case TK_BYTEA:
			{
				bytea	   *b;

				PG_GUARD(b = DatumGetByteaPP(d));
				size_t		len = VARSIZE_ANY_EXHDR(b);
				Local<ArrayBuffer> ab = new_array_buffer(isolate, len);

				if (len > 0)
					memcpy(ab->GetBackingStore()->Data(), VARDATA_ANY(b), len);
				return Uint8Array::New(ab, 0, len);
			}
		case TK_ARRAY:
			return array_to_js(isolate, d, ti);
		case TK_COMPOSITE:
			return composite_to_js(isolate, d);
		case TK_OTHER:
		default:
			{
				char	   *s;

				ensure_out(ti);
				PG_GUARD(s = OutputFunctionCall(&ti->out, d));
				Local<v8::String> r = js_str(isolate, s);

				pfree(s);
				return r;
			}
	}
}

/* String(v) through the type's input function (domain checks included). */
static Datum
input_from_string(Isolate *isolate, Local<Value> v, TypeInfo *ti)
{
	std::string s = js_to_stdstring(isolate, v);
	Datum		d;

	check_no_nul(s);
	ensure_in(ti);
	PG_GUARD(d = InputFunctionCall(&ti->in, (char *) s.c_str(), ti->ioparam, ti->typmod));
	return d;
}

static void
range_error(const char *typname)
{
	char		buf[128];

	snprintf(buf, sizeof(buf), "value out of range for type %s", typname);
	pg_throw(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, buf);
}

/*
 * Integers from JS numbers convert as in plv8 (plv8_type.cc, ToScalarDatum),
 * which uses V8's own conversions: int2 and int4 take ToInt32 (the fraction is
 * truncated and the value wraps modulo 2^32, int2 then keeps the low 16 bits:
 * 1234.56 -> 1234, 2147483648 -> -2147483648, NaN -> 0), oid takes ToUint32,
 * int8 takes IntegerValue (truncated, saturated at the int64 bounds).  A BigInt
 * goes to int8 modulo 2^64 (BigInt::Int64Value, as plv8 does) and to every
 * other integer type through the type's input function, like any other value.
 */
static int32
js_number_to_int32(Isolate *isolate, Local<Value> v)
{
	return v->Int32Value(isolate->GetCurrentContext()).FromMaybe(0);
}

static Datum
js_date_to_datum(Isolate *isolate, Local<Value> v, TypeInfo *ti)
{
	double		ms = v.As<Date>()->ValueOf();

	if (std::isnan(ms))
		pg_throw(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE, "cannot convert an invalid JavaScript Date");
	if (ti->kind == TK_DATE)
	{
		double		days = std::floor((ms - EPOCH_DIFF_MS) / 86400000.0);

		if (days < (double) (DATETIME_MIN_JULIAN - POSTGRES_EPOCH_JDATE) ||
			days >= (double) (DATE_END_JULIAN - POSTGRES_EPOCH_JDATE))
			range_error("date");
		return DateADTGetDatum((DateADT) days);
	}
	else
	{
		double		us = std::round((ms - EPOCH_DIFF_MS) * 1000.0);

		if (us < (double) MIN_TIMESTAMP || us >= (double) END_TIMESTAMP)
			range_error(ti->kind == TK_TIMESTAMP ? "timestamp" : "timestamp with time zone");
		return Int64GetDatum((int64) us);
	}
}

/*
 * JSON.stringify(v).  Its semantics are kept on purpose: undefined and
 * functions inside objects are dropped, Dates become ISO strings, and a BigInt
 * anywhere in the value is a TypeError ("Do not know how to serialize a
 * BigInt"), exactly as in plv8, which also uses JSON.stringify; silently
 * turning it into a number here would make code that works on this handler
 * fail on real plv8.  Returns false when the result is undefined.
 */
static bool
js_stringify(Isolate *isolate, Local<Value> v, std::string &out)
{
	Local<v8::String> s;
	Local<Context> context = isolate->GetCurrentContext();

	if (!JSON::Stringify(context, v).ToLocal(&s))
		throw JsPending();
	/* JSON::Stringify yields the string "undefined" when JSON.stringify gives undefined */
	if (v->IsUndefined() || v->IsFunction() || v->IsSymbol())
		return false;
	out = js_to_stdstring(isolate, s);
	return true;
}

static Datum
js_to_array(Isolate *isolate, Local<Array> arr, TypeInfo *ti)
{
	Local<Context> context = isolate->GetCurrentContext();
	uint32_t	n = arr->Length();
	TypeInfo   *et = ti->elem;
	Datum	   *values;
	bool	   *nulls;
	ArrayType  *result;
	int			dims[1];
	int			lbs[1];

	PG_GUARD(values = (Datum *) palloc(sizeof(Datum) * (n + 1));
			 nulls = (bool *) palloc(sizeof(bool) * (n + 1)));
	for (uint32_t i = 0; i < n; i++)
	{
		Local<Value> e;

		if (!arr->Get(context, i).ToLocal(&e))
			throw JsPending();
		values[i] = js_to_datum(isolate, e, &nulls[i], et);
	}
	dims[0] = (int) n;
	lbs[0] = 1;
	PG_GUARD(result = construct_md_array(values, nulls, 1, dims, lbs, et->typid,
										 et->len, et->byval, et->align));
	return PointerGetDatum(result);
}

RowInfo *
rowinfo_create(TupleDesc tupdesc, MemoryContext mcxt)
{
	RowInfo    *ri;
	MemoryContext old = CurrentMemoryContext;

	/*
	 * Everything lives in mcxt, the tuple descriptor copy too: a RowInfo
	 * cached with a compiled function (FuncInfo.ret_row) outlives the
	 * (executor or callback scratch) context current when it was built.
	 */
	PG_GUARD(ri = (RowInfo *) MemoryContextAllocZero(mcxt, sizeof(RowInfo));
			 MemoryContextSwitchTo(mcxt);
			 ri->tupdesc = CreateTupleDescCopy(tupdesc);
			 MemoryContextSwitchTo(old);
			 ri->cols = (TypeInfo **) MemoryContextAllocZero(mcxt, sizeof(TypeInfo *) * (tupdesc->natts + 1)));
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (!att->attisdropped)
			ri->cols[i] = typeinfo_create(att->atttypid, att->atttypmod, mcxt);
	}
	return ri;
}

void
js_to_row(Isolate *isolate, Local<Value> v, RowInfo *ri, Datum *values, bool *nulls)
{
	Local<Context> context = isolate->GetCurrentContext();
	TupleDesc	tupdesc = ri->tupdesc;

	if (!v->IsObject() || v->IsArray())
	{
		char		buf[256];

		snprintf(buf, sizeof(buf), "cannot convert %s to a row: an object with one property per column is required",
				 v->IsArray() ? "an array" : "a non-object value");
		pg_throw(ERRCODE_DATATYPE_MISMATCH, buf);
	}
	Local<Object> obj = v.As<Object>();

	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		Local<Value> pv;

		nulls[i] = true;
		values[i] = (Datum) 0;
		if (att->attisdropped)
			continue;
		Local<v8::String> key = js_str(isolate, NameStr(att->attname));
		Maybe<bool> has = obj->Has(context, key);

		if (has.IsNothing())
			throw JsPending();
		if (!has.FromJust())
		{
			char		buf[256];

			snprintf(buf, sizeof(buf), "returned object has no property \"%s\" (every column of the row needs one)",
					 NameStr(att->attname));
			pg_throw(ERRCODE_DATATYPE_MISMATCH, buf);
		}
		if (!obj->Get(context, key).ToLocal(&pv))
			throw JsPending();
		values[i] = js_to_datum(isolate, pv, &nulls[i], ri->cols[i]);
	}
}

HeapTuple
js_to_heaptuple(Isolate *isolate, Local<Value> v, RowInfo *ri)
{
	Datum	   *values;
	bool	   *nulls;
	HeapTuple	tup;
	int			natts = ri->tupdesc->natts;

	PG_GUARD(values = (Datum *) palloc(sizeof(Datum) * (natts + 1));
			 nulls = (bool *) palloc(sizeof(bool) * (natts + 1)));
	js_to_row(isolate, v, ri, values, nulls);
	PG_GUARD(tup = heap_form_tuple(ri->tupdesc, values, nulls));
	pfree(values);
	pfree(nulls);
	return tup;
}

static Datum
js_to_composite(Isolate *isolate, Local<Value> v, TypeInfo *ti)
{
	TupleDesc	tupdesc;
	RowInfo    *ri;
	HeapTuple	tup;

	if (ti->typid == RECORDOID && ti->typmod < 0)
		pg_throw(ERRCODE_FEATURE_NOT_SUPPORTED,
				 "cannot convert a JavaScript value to an anonymous record type");
	PG_GUARD(tupdesc = lookup_rowtype_tupdesc(ti->typid, ti->typmod));
	try
	{
		ri = rowinfo_create(tupdesc, CurrentMemoryContext);
	}
	catch (...)
	{
		ReleaseTupleDesc(tupdesc);
		throw;
	}
	ReleaseTupleDesc(tupdesc);
	Datum		d;

	tup = js_to_heaptuple(isolate, v, ri);
	PG_GUARD(d = HeapTupleGetDatum(tup));
	return d;
}

Datum
js_to_datum(Isolate *isolate, Local<Value> v, bool *isnull, TypeInfo *ti)
{
	*isnull = false;
	if (v->IsNullOrUndefined())
	{
		*isnull = true;
		return (Datum) 0;
	}

	switch (ti->kind)
	{
		case TK_BOOL:
			/* as in plv8: a boolean, else String(v) through boolin ('t', 'yes', 1 ...) */
			if (v->IsBoolean())
				return BoolGetDatum(v->BooleanValue(isolate));
			break;
		case TK_INT2:
			if (v->IsNumber())
				return Int16GetDatum((int16) js_number_to_int32(isolate, v));
			break;
		case TK_INT4:
			if (v->IsNumber())
				return Int32GetDatum(js_number_to_int32(isolate, v));
			break;
		case TK_OID:
			if (v->IsNumber())
				return ObjectIdGetDatum((Oid) v->Uint32Value(isolate->GetCurrentContext()).FromMaybe(0));
			break;
		case TK_INT8:
			if (v->IsBigInt())
				return Int64GetDatum(v.As<BigInt>()->Int64Value(nullptr));
			if (v->IsNumber())
				return Int64GetDatum(v->IntegerValue(isolate->GetCurrentContext()).FromMaybe(0));
			break;
		case TK_FLOAT4:
			if (v->IsNumber())
				return Float4GetDatum((float4) v.As<Number>()->Value());
			break;
		case TK_FLOAT8:
			if (v->IsNumber())
				return Float8GetDatum(v.As<Number>()->Value());
			break;
		case TK_NUMERIC:
			/*
			 * A number goes through float8_numeric as in plv8, which keeps 15
			 * significant digits (0.1 + 0.2 -> 0.3); BigInt digits are exact
			 * (numeric_in of String(v)).
			 */
			if (v->IsNumber())
			{
				Datum		d;

				/* a column's numeric(p,s) still applies, as numeric_in would apply it */
				PG_GUARD(d = DirectFunctionCall1(float8_numeric, Float8GetDatum(v.As<Number>()->Value()));
						 if (ti->typmod >= 0)
						 d = DirectFunctionCall2(numeric, d, Int32GetDatum(ti->typmod)));
				return d;
			}
			break;
		case TK_TEXT:
			if (ti->typid == TEXTOID)
			{
				std::string s = js_to_stdstring(isolate, v);
				Datum		d;

				check_no_nul(s);
				PG_GUARD(d = PointerGetDatum(cstring_to_text_with_len(s.data(), (int) s.size())));
				return d;
			}
			break;				/* varchar/bpchar: the input function applies the typmod */
		case TK_DATE:
		case TK_TIMESTAMP:
		case TK_TIMESTAMPTZ:
			if (v->IsDate())
				return js_date_to_datum(isolate, v, ti);
			break;
		case TK_JSON:
			if (!v->IsString())
			{
				std::string s;
				Datum		d;

				if (!js_stringify(isolate, v, s))
				{
					*isnull = true;
					return (Datum) 0;
				}
				check_no_nul(s);
				PG_GUARD(d = PointerGetDatum(cstring_to_text_with_len(s.data(), (int) s.size())));
				return d;
			}
			break;				/* a JS string is raw JSON text: json_in validates it */
		case TK_JSONB:
			{
				std::string s;
				Datum		d;

				if (!js_stringify(isolate, v, s))
				{
					*isnull = true;
					return (Datum) 0;
				}
				ensure_in(ti);
				PG_GUARD(d = InputFunctionCall(&ti->in, (char *) s.c_str(), ti->ioparam, ti->typmod));
				return d;
			}
		case TK_BYTEA:
			if (v->IsArrayBufferView() || v->IsArrayBuffer())
			{
				bytea	   *b;
				size_t		len;

				if (v->IsArrayBufferView())
				{
					Local<ArrayBufferView> view = v.As<ArrayBufferView>();

					len = view->ByteLength();
					PG_GUARD(b = (bytea *) palloc(VARHDRSZ + len));
					view->CopyContents(VARDATA(b), len);
				}
				else
				{
					std::shared_ptr<BackingStore> bs = v.As<ArrayBuffer>()->GetBackingStore();

					len = bs->ByteLength();
					PG_GUARD(b = (bytea *) palloc(VARHDRSZ + len));
					if (len > 0)
						memcpy(VARDATA(b), bs->Data(), len);
				}
				SET_VARSIZE(b, VARHDRSZ + len);
				return PointerGetDatum(b);
			}
			break;
		case TK_ARRAY:
			if (v->IsArray())
				return js_to_array(isolate, v.As<Array>(), ti);
			break;
		case TK_COMPOSITE:
			if (v->IsObject() && !v->IsDate() && !v->IsArray())
				return js_to_composite(isolate, v, ti);
			break;
		case TK_OTHER:
			break;
	}
	return input_from_string(isolate, v, ti);
}
