/*
 * svc's native part: the vector arithmetic an exact scan runs once per row. svc_search over a real[]
 * destination (no pgvector) returns svc_cosine_distance; in PL/pgSQL over unnest that cost ~25 us a
 * row, where pgvector's <=> costs ~1 us. Built by svc's PGXS Makefile into svc.so.
 *
 * Its lower bound, svc__cosine_distance_lower_bound, is what that scan orders every chunk by: the
 * same sums in another order (AVX where the CPU has it, else SSE2 where the compiler targets it),
 * cheaper than pgvector's <=>; the exact distance is then computed for the few chunks it keeps.
 *
 * Both are reachable by every role through SQL with any real[] it can build, so they read only what
 * the array header says is there: one dimension (or none: empty), no NULL elements, float4 elements,
 * checked before the data is touched.
 */
#include "postgres.h"

#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

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
vector_elements(const char *fn, ArrayType *array, const char *name, int *length)
{
	if (ARR_ELEMTYPE(array) != FLOAT4OID)
		ereport(ERROR,
				(errcode(ERRCODE_DATATYPE_MISMATCH),
				 errmsg("%s: %s must be a real[]", fn, name)));
	if (ARR_NDIM(array) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s: %s must have one dimension (has %d)", fn, name, ARR_NDIM(array))));
	if (array_contains_nulls(array))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s: %s must not contain NULL elements", fn, name)));
	*length = ARR_NDIM(array) == 0 ? 0 : ARR_DIMS(array)[0];
	return (const float4 *) ARR_DATA_PTR(array);
}

/*
 * Both arguments' elements and their common length, or an error naming the argument. Not STRICT: a
 * NULL vector is a caller's mistake, said as such (as the PL/pgSQL form did).
 */
static int
vector_pair(FunctionCallInfo fcinfo, const char *fn, const float4 **ax, const float4 **bx)
{
	int			alength;
	int			blength;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("%s: %s must not be NULL", fn, PG_ARGISNULL(0) ? "a" : "b")));
	*ax = vector_elements(fn, PG_GETARG_ARRAYTYPE_P(0), "a", &alength);
	*bx = vector_elements(fn, PG_GETARG_ARRAYTYPE_P(1), "b", &blength);
	if (alength != blength)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s: a and b must have the same length (got %d and %d)", fn, alength, blength)));
	return alength;
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
	const float4 *ax;
	const float4 *bx;
	int			length = vector_pair(fcinfo, "svc_cosine_distance", &ax, &bx);
	double		dot = 0.0;
	double		norma = 0.0;
	double		normb = 0.0;

	for (int i = 0; i < length; i++)
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

/*
 * The three sums over the first length - length % 4 elements in four running sums each, two per SSE2
 * register (plain C where the compiler targets no SSE2). Returns how many elements it took.
 */
static int
sums_portable(const float4 *ax, const float4 *bx, int length, double *dot, double *norma, double *normb)
{
	int			i = 0;
#ifdef __SSE2__
	__m128d		dot0 = _mm_setzero_pd(), dot1 = _mm_setzero_pd();
	__m128d		norma0 = _mm_setzero_pd(), norma1 = _mm_setzero_pd();
	__m128d		normb0 = _mm_setzero_pd(), normb1 = _mm_setzero_pd();
	double		lanes[2];

	for (; i + 4 <= length; i += 4)
	{
		__m128		a4 = _mm_loadu_ps(ax + i);
		__m128		b4 = _mm_loadu_ps(bx + i);
		__m128d		x0 = _mm_cvtps_pd(a4);
		__m128d		x1 = _mm_cvtps_pd(_mm_movehl_ps(a4, a4));
		__m128d		y0 = _mm_cvtps_pd(b4);
		__m128d		y1 = _mm_cvtps_pd(_mm_movehl_ps(b4, b4));

		dot0 = _mm_add_pd(dot0, _mm_mul_pd(x0, y0));
		dot1 = _mm_add_pd(dot1, _mm_mul_pd(x1, y1));
		norma0 = _mm_add_pd(norma0, _mm_mul_pd(x0, x0));
		norma1 = _mm_add_pd(norma1, _mm_mul_pd(x1, x1));
		normb0 = _mm_add_pd(normb0, _mm_mul_pd(y0, y0));
		normb1 = _mm_add_pd(normb1, _mm_mul_pd(y1, y1));
	}
	_mm_storeu_pd(lanes, _mm_add_pd(dot0, dot1));
	*dot = lanes[0] + lanes[1];
	_mm_storeu_pd(lanes, _mm_add_pd(norma0, norma1));
	*norma = lanes[0] + lanes[1];
	_mm_storeu_pd(lanes, _mm_add_pd(normb0, normb1));
	*normb = lanes[0] + lanes[1];
#else
	double		sums[3][4] = {{0}};

	for (; i + 4 <= length; i += 4)
		for (int j = 0; j < 4; j++)
		{
			double		x = ax[i + j];
			double		y = bx[i + j];

			sums[0][j] += x * y;
			sums[1][j] += x * x;
			sums[2][j] += y * y;
		}
	*dot = (sums[0][0] + sums[0][1]) + (sums[0][2] + sums[0][3]);
	*norma = (sums[1][0] + sums[1][1]) + (sums[1][2] + sums[1][3]);
	*normb = (sums[2][0] + sums[2][1]) + (sums[2][2] + sums[2][3]);
#endif
	return i;
}

#if defined(__x86_64__) && defined(__GNUC__)
/*
 * The same with eight running sums, four per AVX register, for CPUs with AVX (chosen at each call:
 * svc.so is built for the baseline, SSE2). Multiplies and adds, not fused: with every product exact
 * in double, fusing them would change nothing.
 */
__attribute__((target("avx")))
static int
sums_avx(const float4 *ax, const float4 *bx, int length, double *dot, double *norma, double *normb)
{
	int			i = 0;
	__m256d		dot0 = _mm256_setzero_pd(), dot1 = _mm256_setzero_pd();
	__m256d		norma0 = _mm256_setzero_pd(), norma1 = _mm256_setzero_pd();
	__m256d		normb0 = _mm256_setzero_pd(), normb1 = _mm256_setzero_pd();
	double		lanes[4];

	for (; i + 8 <= length; i += 8)
	{
		__m256d		x0 = _mm256_cvtps_pd(_mm_loadu_ps(ax + i));
		__m256d		x1 = _mm256_cvtps_pd(_mm_loadu_ps(ax + i + 4));
		__m256d		y0 = _mm256_cvtps_pd(_mm_loadu_ps(bx + i));
		__m256d		y1 = _mm256_cvtps_pd(_mm_loadu_ps(bx + i + 4));

		dot0 = _mm256_add_pd(dot0, _mm256_mul_pd(x0, y0));
		dot1 = _mm256_add_pd(dot1, _mm256_mul_pd(x1, y1));
		norma0 = _mm256_add_pd(norma0, _mm256_mul_pd(x0, x0));
		norma1 = _mm256_add_pd(norma1, _mm256_mul_pd(x1, x1));
		normb0 = _mm256_add_pd(normb0, _mm256_mul_pd(y0, y0));
		normb1 = _mm256_add_pd(normb1, _mm256_mul_pd(y1, y1));
	}
	for (; i + 4 <= length; i += 4)
	{
		__m256d		x = _mm256_cvtps_pd(_mm_loadu_ps(ax + i));
		__m256d		y = _mm256_cvtps_pd(_mm_loadu_ps(bx + i));

		dot0 = _mm256_add_pd(dot0, _mm256_mul_pd(x, y));
		norma0 = _mm256_add_pd(norma0, _mm256_mul_pd(x, x));
		normb0 = _mm256_add_pd(normb0, _mm256_mul_pd(y, y));
	}
	_mm256_storeu_pd(lanes, _mm256_add_pd(dot0, dot1));
	*dot = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
	_mm256_storeu_pd(lanes, _mm256_add_pd(norma0, norma1));
	*norma = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
	_mm256_storeu_pd(lanes, _mm256_add_pd(normb0, normb1));
	*normb = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
	return i;
}
#endif

/*
 * A lower bound of svc_cosine_distance(a, b), within (length + 8) * 2e-15 of it: the same three sums,
 * added in another order, several running sums each (sums_avx, sums_portable), where the sums in
 * element order make each addition wait for the one before it. Over 100,000 chunks of 64 dimensions
 * it costs about half what the distance does, less than pgvector's <=> (docs/benchmarks.md).
 *
 * Why it is a bound: a float times a float is exact in double (24 + 24 significant bits), so the two
 * functions add the same exact products and differ only in the rounding of their additions. Any order
 * of n additions is within gamma = (n - 1) u / (1 - (n - 1) u) (u = 2^-53) of the exact sum, relative
 * to the sum of the terms' magnitudes, which is at most sqrt(norm a * norm b) for the dot product
 * (Cauchy-Schwarz) and the norm itself for the norms; no sum can overflow (at most 2^28 terms below
 * 2^256) nor leave the normal range (a nonzero product is at least 2^-298). So each function's cosine
 * is within 2 gamma + 3 u of the exact one, the two within 4 gamma + 6 u, their distances within
 * 4 gamma + 10 u < (4 n + 6) u after the subtraction from 1: (n + 8) * 1e-15 is more than twice that.
 * The special cases agree whatever the order: a sum of squares is zero exactly when each square is
 * (NULL alike), and an infinite or NaN element makes both distances NaN.
 *
 * svc_search's exact scan (vectorizer-sql.ts) keeps the k x 10 chunks of the least bound and computes
 * their exact distances; a chunk it left out is at least as far as the largest bound it kept.
 */
PG_FUNCTION_INFO_V1(svc_cosine_distance_lower_bound);
Datum
svc_cosine_distance_lower_bound(PG_FUNCTION_ARGS)
{
	const float4 *ax;
	const float4 *bx;
	int			length = vector_pair(fcinfo, "svc__cosine_distance_lower_bound", &ax, &bx);
	double		dot;
	double		norma;
	double		normb;
	int			i;

#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx"))
		i = sums_avx(ax, bx, length, &dot, &norma, &normb);
	else
#endif
		i = sums_portable(ax, bx, length, &dot, &norma, &normb);
	for (; i < length; i++)
	{
		double		x = ax[i];
		double		y = bx[i];

		dot += x * y;
		norma += x * x;
		normb += y * y;
	}

	if (!(norma > 0 || isnan(norma)) || !(normb > 0 || isnan(normb)))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(1.0 - dot / sqrt(norma * normb) - (length + 8) * 1e-15);
}
