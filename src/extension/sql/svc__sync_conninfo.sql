-- svc.sync_connection, or this server's first unix socket as the extension's owner (libpq quoting).
SELECT coalesce(nullif(current_setting('svc.sync_connection', true), ''),
  format('dbname=%s user=%s port=%s host=%s',
    svc__conninfo_quote(current_database()), svc__conninfo_quote(current_user), current_setting('port'),
    svc__conninfo_quote(coalesce(nullif(trim(split_part(current_setting('unix_socket_directories'), ',', 1)), ''), 'localhost'))))
