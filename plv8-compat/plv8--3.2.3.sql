-- plv8-compat 3.2.3: language plv8 and its helper functions.
\echo Use "CREATE EXTENSION plv8" to load this file. \quit

CREATE FUNCTION plv8_call_handler() RETURNS language_handler
  AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE FUNCTION plv8_inline_handler(internal) RETURNS void
  AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE FUNCTION plv8_call_validator(oid) RETURNS void
  AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE TRUSTED LANGUAGE plv8
  HANDLER plv8_call_handler
  INLINE plv8_inline_handler
  VALIDATOR plv8_call_validator;

CREATE FUNCTION plv8_version() RETURNS text
  AS 'MODULE_PATHNAME' LANGUAGE C STRICT;

CREATE FUNCTION plv8_reset() RETURNS void
  AS 'MODULE_PATHNAME' LANGUAGE C;

CREATE FUNCTION plv8_info() RETURNS json
  AS 'MODULE_PATHNAME' LANGUAGE C;
