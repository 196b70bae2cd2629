/*
 * svc__reals(bytea) -> real[]: a vectorizer job's vectors as the worker holds them, float32s
 * little-endian (base64 in the job's result, decoded by svc__vectorizer_apply), into the real[] a
 * destination stores (or pgvector's vector, by its assignment cast). As decimal numbers in JSON the
 * same vectors cost the worker its printing and PostgreSQL a numeric parse, a print and a float
 * parse per component: most of a backfill's CPU a row in the database (#55). The bytes are the
 * reals themselves, so the destination holds exactly what svc_embed of the same text returns.
 *
 * Internal (svc_owner's alone), but it reads nothing but its argument: any length that is whole
 * reals, NaN and infinities included (pgvector's cast refuses those for a vector column).
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "port/pg_bswap.h"
#include "utils/array.h"
#include "utils/memutils.h"

PG_FUNCTION_INFO_V1(svc_reals_from_bytes);

Datum
svc_reals_from_bytes(PG_FUNCTION_ARGS)
{
	bytea	   *bytes;
	const char *data;
	int			size;
	int			count;
	ArrayType  *result;
	Size		total;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("svc__reals: bytes must not be NULL")));
	bytes = PG_GETARG_BYTEA_PP(0);
	data = VARDATA_ANY(bytes);
	size = VARSIZE_ANY_EXHDR(bytes);
	if (size % sizeof(float4) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("svc__reals: bytes must hold whole 4-byte reals (holds %d bytes)", size)));
	count = size / sizeof(float4);
	if (count == 0)
		PG_RETURN_ARRAYTYPE_P(construct_empty_array(FLOAT4OID));
	if ((Size) count > MaxArraySize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("svc__reals: %d reals are more than an array holds", count)));

	/* One dimension, no NULL bitmap: the header, then the reals (float4 is int-aligned, as is the header's end). */
	total = ARR_OVERHEAD_NONULLS(1) + (Size) size;
	result = (ArrayType *) palloc0(total);
	SET_VARSIZE(result, total);
	result->ndim = 1;
	result->dataoffset = 0;
	result->elemtype = FLOAT4OID;
	ARR_DIMS(result)[0] = count;
	ARR_LBOUND(result)[0] = 1;
	memcpy(ARR_DATA_PTR(result), data, size);
#ifdef WORDS_BIGENDIAN
	{
		uint32	   *words = (uint32 *) ARR_DATA_PTR(result);

		for (int i = 0; i < count; i++)
			words[i] = pg_bswap32(words[i]);
	}
#endif
	PG_FREE_IF_COPY(bytes, 0);
	PG_RETURN_ARRAYTYPE_P(result);
}
