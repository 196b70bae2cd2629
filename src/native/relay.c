/*
 * svc_relay: the door of every svc function a role calls whose body is JavaScript (plv8) or that is an
 * administrator's, in C so that what it passes on reads as svc's own words.
 *
 * plv8 (the genuine one, and plv8-compat, which matches it) appends the JavaScript line that rethrew
 * an exception as the error's CONTEXT ("svc_generate() LINE 6: throw error; ..."), and PL/pgSQL and
 * SQL functions their own lines: noise beside svc's messages, which name the function, the parameter
 * and the rule. The public function is this relay; it calls its body, svc__run_<name> in the same
 * schema with the same arguments, and drops from an error's CONTEXT the lines that svc's own function
 * frames added, keeping those of the caller's (its PL/pgSQL, its SQL statement).
 *
 * And PostgreSQL's own refusal of a function ("permission denied for function svc_cache_clear") says
 * nothing of what is missing: where the body is granted to some roles (an administrator's function,
 * whose relay is PUBLIC's), the relay checks EXECUTE on it for the current user first, the check
 * PostgreSQL would make, and names the roles it is granted to. A body granted to nobody is reached
 * only through its relay, on the relay's own EXECUTE.
 *
 * It runs no SQL: it looks the body up in the catalogs (by schema, name and argument types, cached for
 * the call site) and calls it through fmgr, which applies the body's SECURITY DEFINER and SET clauses.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "parser/parse_func.h"
#include "utils/array.h"
#include "catalog/pg_proc.h"
#include "fmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#if PG_VERSION_NUM >= 160000
#define svc_execute_aclcheck(oid) object_aclcheck(ProcedureRelationId, (oid), GetUserId(), ACL_EXECUTE)
#else
#define svc_execute_aclcheck(oid) pg_proc_aclcheck((oid), GetUserId(), ACL_EXECUTE)
#endif

PG_FUNCTION_INFO_V1(svc_relay);

typedef struct RelayCache
{
	FmgrInfo	body;
	char	   *name;			/* the relay's own name, for messages */
	bool		check;			/* the body is granted to some roles: check EXECUTE on it first */
} RelayCache;

/* The body of relay `relay`: svc__run_<name without its svc_ prefix> in its schema, with its argument types. */
static Oid
relay_body(Oid relay, char **name)
{
	HeapTuple	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(relay));
	Form_pg_proc proc;
	const char *bare;
	char	   *schema;
	Oid			body;

	if (!HeapTupleIsValid(tuple))
		elog(ERROR, "svc_relay: cache lookup failed for function %u", relay);
	proc = (Form_pg_proc) GETSTRUCT(tuple);
	*name = pstrdup(NameStr(proc->proname));
	bare = *name;
	while (*bare == 's' && strncmp(bare, "svc_", 4) == 0)
		bare += 4;
	while (*bare == '_')
		bare++;
	schema = get_namespace_name(proc->pronamespace);
	body = LookupFuncName(list_make2(makeString(schema), makeString(psprintf("svc__run_%s", bare))),
						  proc->pronargs, proc->proargtypes.values, true);
	ReleaseSysCache(tuple);
	if (!OidIsValid(body))
		elog(ERROR, "svc_relay: function %s has no body svc__run_%s (the extension's script is incomplete)", *name, bare);
	return body;
}

/* The roles but its owner that the body's ACL grants EXECUTE to, as a readable list ("svc_admin"). */
static char *
grantees(Oid body)
{
	HeapTuple	tuple = SearchSysCache1(PROCOID, ObjectIdGetDatum(body));
	StringInfoData out;
	bool		isnull;
	Datum		acl;

	initStringInfo(&out);
	if (!HeapTupleIsValid(tuple))
		return out.data;
	acl = SysCacheGetAttr(PROCOID, tuple, Anum_pg_proc_proacl, &isnull);
	if (!isnull)
	{
		Acl		   *items = DatumGetAclP(acl);
		AclItem    *item = ACL_DAT(items);
		Oid			owner = ((Form_pg_proc) GETSTRUCT(tuple))->proowner;

		for (int i = 0; i < ACL_NUM(items); i++)
		{
			if ((ACLITEM_GET_PRIVS(item[i]) & ACL_EXECUTE) == 0 || item[i].ai_grantee == owner)
				continue;
			appendStringInfo(&out, "%s%s", out.len > 0 ? ", " : "",
							 item[i].ai_grantee == ACL_ID_PUBLIC ? "PUBLIC" : GetUserNameFromId(item[i].ai_grantee, false));
		}
	}
	ReleaseSysCache(tuple);
	return out.data;
}

/* Whether a CONTEXT line was added by a frame of svc's own: a plv8 stub, or one of svc's PL/pgSQL or SQL functions. */
static bool
svc_frame(const char *line, size_t len)
{
	char	   *copy = pnstrdup(line, len);
	const char *l = copy;
	bool		ours;

	if (strncmp(l, "PL/pgSQL function ", 18) == 0)
		l += 18;
	else if (strncmp(l, "SQL function \"", 14) == 0)
		l += 14;
	if (strncmp(l, "public.", 7) == 0)
		l += 7;
	ours = strncmp(l, "svc_", 4) == 0 &&
		(l == copy ? strstr(l, "() LINE ") != NULL : true);
	pfree(copy);
	return ours;
}

/* The CONTEXT without the lines svc's own frames added (NULL when nothing is left). */
static char *
caller_context(const char *context)
{
	StringInfoData out;
	const char *line = context;

	initStringInfo(&out);
	while (*line)
	{
		const char *end = strchr(line, '\n');
		size_t		len = end ? (size_t) (end - line) : strlen(line);

		if (!svc_frame(line, len))
			appendStringInfo(&out, "%s%.*s", out.len > 0 ? "\n" : "", (int) len, line);
		line += len + (end ? 1 : 0);
	}
	return out.len > 0 ? out.data : NULL;
}

Datum
svc_relay(PG_FUNCTION_ARGS)
{
	RelayCache *cache = (RelayCache *) fcinfo->flinfo->fn_extra;
	FunctionCallInfo body;
	MemoryContext caller = CurrentMemoryContext;
	Datum		result = (Datum) 0;

	if (cache == NULL)
	{
		MemoryContext old = MemoryContextSwitchTo(fcinfo->flinfo->fn_mcxt);
		Oid			oid;

		cache = (RelayCache *) palloc0(sizeof(RelayCache));
		oid = relay_body(fcinfo->flinfo->fn_oid, &cache->name);
		fmgr_info_cxt(oid, &cache->body, fcinfo->flinfo->fn_mcxt);
		cache->body.fn_expr = fcinfo->flinfo->fn_expr;
		cache->check = grantees(oid)[0] != '\0';
		MemoryContextSwitchTo(old);
		fcinfo->flinfo->fn_extra = cache;
	}
	if (cache->check && svc_execute_aclcheck(cache->body.fn_oid) != ACLCHECK_OK)
	{
		char	   *roles = grantees(cache->body.fn_oid);

		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("%s: permission denied: only %s may run it", cache->name,
						roles[0] ? psprintf("members of %s", roles) : "its owner"),
				 roles[0] ? errhint("A superuser (or a member of %s with ADMIN OPTION) grants it: GRANT %s TO %s;",
									roles, roles, GetUserNameFromId(GetUserId(), false)) : 0));
	}

	body = (FunctionCallInfo) palloc0(SizeForFunctionCallInfo(fcinfo->nargs));
	InitFunctionCallInfoData(*body, &cache->body, fcinfo->nargs, fcinfo->fncollation, fcinfo->context, fcinfo->resultinfo);
	for (int i = 0; i < fcinfo->nargs; i++)
		body->args[i] = fcinfo->args[i];

	PG_TRY();
	{
		result = FunctionCallInvoke(body);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(caller);
		edata = CopyErrorData();
		if (edata->elevel < ERROR || edata->context == NULL)
			PG_RE_THROW();
		FlushErrorState();
		edata->context = caller_context(edata->context);
		ReThrowError(edata);
	}
	PG_END_TRY();

	fcinfo->isnull = body->isnull;
	return result;
}
