/*
 * svc's native part: the vector arithmetic an exact scan runs once per row. svc_search over a real[]
 * destination (no pgvector) orders every chunk by svc_cosine_distance; in PL/pgSQL over unnest that
 * cost ~25 us a row, where pgvector's <=> costs ~1 us. Built by svc's PGXS Makefile into svc.so.
 *
 * The function is reachable by every role through SQL with any real[] it can build, so it reads only
 * what the array header says is there: one dimension (or none: empty), no NULL elements, float4
 * elements, checked before the data is touched.
 */
#include "postgres.h"

#include <math.h>

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "utils/array.h"

PG_MODULE_MAGIC;

/*
 * The elements of one argument as a C array, after refusing what the distance is not defined for.
 * An array's dimensions were checked against its data size when it was built (array_in, array_recv,
 * construct_md_array), so dims[0] floats follow ARR_DATA_PTR.
 */
static const float4 *
vector_elements(ArrayType *array, const char *name, int *length)
{
	if (ARR_ELEMTYPE(array) != FLOAT4OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("svc_cosine_distance: %s must be a real[]", name)));
	if (ARR_NDIM(array) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("svc_cosine_distance: %s must have one dimension (has %d)", name, ARR_NDIM(array))));
	if (array_contains_nulls(array))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("svc_cosine_distance: %s must not contain NULL elements", name)));
	*length = ARR_NDIM(array) == 0 ? 0 : ARR_DIMS(array)[0];
	return (const float4 *) ARR_DATA_PTR(array);
}

/*
 * 1 - cosine similarity, as pgvector's <=> (cosine_distance in its vector.c): the three sums in one
 * pass, then similarity / sqrt(norm a * norm b) in double precision. The sums are accumulated in
 * double (pgvector sums in float), in element order, as the SQL form sum(x::float8 * y) did, so the
 * distances are those it returned. NULL when either vector is all zeros (or empty): NaN would sort
 * anywhere. A NaN element gives NaN, which PostgreSQL sorts after every number (its comparison
 * counts NaN greater than all, so `sum > 0` held for it in SQL too).
 */
PG_FUNCTION_INFO_V1(svc_cosine_distance);
Datum
svc_cosine_distance(PG_FUNCTION_ARGS)
{
	ArrayType  *a;
	ArrayType  *b;
	const float4 *ax;
	const float4 *bx;
	int			alength;
	int			blength;
	double		dot = 0.0;
	double		norma = 0.0;
	double		normb = 0.0;

	/* Not STRICT: a NULL vector is a caller's mistake, said as such (as the PL/pgSQL form did). */
	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("svc_cosine_distance: %s must not be NULL", PG_ARGISNULL(0) ? "a" : "b")));
	a = PG_GETARG_ARRAYTYPE_P(0);
	b = PG_GETARG_ARRAYTYPE_P(1);
	ax = vector_elements(a, "a", &alength);
	bx = vector_elements(b, "b", &blength);
	if (alength != blength)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("svc_cosine_distance: a and b must have the same length (got %d and %d)", alength, blength)));

	for (int i = 0; i < alength; i++)
	{
		double		x = ax[i];
		double		y = bx[i];

		dot += x * y;
		norma += x * x;
		normb += y * y;
	}

	if (!(norma > 0 || isnan(norma)) || !(normb > 0 || isnan(normb)))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(1.0 - dot / sqrt(norma * normb));
}
