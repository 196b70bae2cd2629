SELECT '''' || replace(replace($1, '\', '\\'), '''', '\''') || ''''
