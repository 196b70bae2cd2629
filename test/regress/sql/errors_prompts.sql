-- svc's errors: the prompt registry (regress.err: surface.sql)
\pset pager off
\pset format unaligned
-- The first call of a SECURITY DEFINER function in a session creates the plv8 context of svc's
-- owner, under plv8.start_proc pinned empty: the genuine plv8 warns there that '' names no function
-- (plv8-compat does not). It is made here, quietly, so that the rest reads the same on both handlers.
SET client_min_messages = error;
SELECT regress.err($$SELECT svc_generate_async(NULL)$$) IS NOT NULL AS owner_context;
RESET client_min_messages;
\pset tuples_only on

-- The prompt registry: templates checked when stored (line and column), renders naming the variable
-- they lack; nothing stored by a refused call
SELECT svc_prompt_create('regress', E'Hi {{ who.name }}.\n{% for t in topics %}\n- {{ t }}\n{% endfor %}', 'a greeting');
SELECT svc_prompt_update('regress', 'Hello {{ who.name }}');
SELECT prompt_name, prompt_version, variables FROM svc_prompt_get('regress', 1);
SELECT prompt_name, latest_version, versions, description, variables FROM svc_prompt_list();
SELECT svc_prompt_render('regress', '{"who": {"name": "Tom"}, "topics": ["a", "b"]}', version := 1);
SELECT regress.err($$SELECT svc_prompt_create(NULL, 'x')$$);
SELECT regress.err($$SELECT svc_prompt_create('has space', 'x')$$);
SELECT regress.err($$SELECT svc_prompt_create('x', 'Hi {{ name')$$);
SELECT regress.err($$SELECT svc_prompt_create('x', '{% if a %}{% else %}{% else %}{% endif %}')$$);
SELECT regress.err($$SELECT svc_prompt_create('x', '{% include "y" %}')$$);
SELECT regress.err($$SELECT svc_prompt_create('x', repeat('a', 100001))$$);
SELECT regress.err($$SELECT svc_prompt_create('regress', 'again')$$);
SELECT regress.err($$SELECT svc_prompt_update('nope', 'x')$$);
SELECT regress.err($$SELECT * FROM svc_prompt_get('regress', 0)$$);
SELECT regress.err($$SELECT * FROM svc_prompt_get('regress', 7)$$);
SELECT regress.err($$SELECT svc_prompt_render('regress', '{}')$$);
SELECT regress.err($$SELECT svc_prompt_render('regress', '{"who": null}')$$);
SELECT regress.err($$SELECT svc_prompt_render('regress', '{"who": {"name": "x"}, "topics": {}}', version := 1)$$);
SELECT regress.err($$SELECT svc_prompt_render('regress', '[]')$$);
SELECT regress.err($$SELECT svc_prompt_render('regress', NULL)$$);
SELECT regress.err($$SELECT svc_prompt_delete('nope')$$);
-- metadata, versions with is_active, filters and non-strict rendering (#56)
SELECT svc_prompt_update('regress', '{{ who.name | trim | upper }} {{ topics | join(", ") | default("-") }} {{ who.nick | default("?") | truncate(3) }}', metadata := '{"team": "regress"}');
SELECT prompt_version, is_active, metadata, variables FROM svc_prompt_versions('regress');
SELECT svc_prompt_render('regress', '{"who": {"name": " Tom ", "nick": "Tommy"}, "topics": ["a", "b"]}');
SELECT svc_prompt_render('regress', '{}', strict := false);
SELECT regress.err($$SELECT svc_prompt_render('regress', '{}', strict := NULL)$$);
SELECT regress.err($$SELECT svc_prompt_render('regress', '{"who": {"name": "x"}, "topics": "a"}')$$);
SELECT regress.err($$SELECT svc_prompt_update('regress', '{{ who | title }}')$$);
SELECT regress.err($$SELECT svc_prompt_update('regress', '{{ who | truncate(-1) }}')$$);
SELECT regress.err($$SELECT svc_prompt_update('regress', 'x', metadata := '[]')$$);
SELECT regress.err($$SELECT * FROM svc_prompt_versions('nope')$$);
SELECT svc_prompt_delete('regress');
SELECT count(*) AS prompts FROM svc_prompts;
