import {
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresDialect,
  type PostgresDialectConfig,
  type SchemaMetadata,
  sql,
  type TableMetadata,
} from "kysely";

/**
 * PostgreSQL's dialect with an introspector that looks only at the store's
 * own schema. Kysely's Migrator asks the introspector which tables exist, and
 * Kysely's own introspector reads every schema of the database calling
 * `has_schema_privilege(name)` and `pg_get_serial_sequence(name)`: these
 * resolve the schema's name again, outside the query's snapshot, so when
 * another process drops a schema during that query (another server's test
 * cleanup on the same database) our migration failed with `schema "<theirs>"
 * does not exist`. This one filters by our schema's name and calls no
 * function that looks a name up, so other schemas coming and going cannot
 * break it.
 */
export class ScopedPostgresDialect extends PostgresDialect {
  readonly #schema: string;
  constructor(config: PostgresDialectConfig, schema: string) {
    super(config);
    this.#schema = schema;
  }
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new ScopedIntrospector(db, this.#schema);
  }
}

interface ColumnRow {
  table: string;
  kind: string;
  column: string | null;
  type: string | null;
  type_schema: string | null;
  not_null: boolean | null;
  has_default: boolean | null;
}

class ScopedIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(
      this.db,
    );
    return rows.map((r) => ({ name: r.name }));
  }

  async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const { rows } = await sql<ColumnRow>`
      select c.relname as "table", c.relkind as kind, a.attname as "column", t.typname as type,
             tn.nspname as type_schema, a.attnotnull as not_null, a.atthasdef as has_default
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      left join pg_catalog.pg_type t on t.oid = a.atttypid
      left join pg_catalog.pg_namespace tn on tn.oid = t.typnamespace
      where n.nspname = ${this.schema} and c.relkind in ('r', 'v', 'p')
      order by c.relname, a.attnum`.execute(this.db);
    const tables = new Map<string, TableMetadata>();
    for (const row of rows) {
      if (!options.withInternalKyselyTables && row.table.startsWith("kysely_migration")) continue;
      let table = tables.get(row.table);
      if (!table) {
        table = { name: row.table, schema: this.schema, isView: row.kind === "v", columns: [] };
        tables.set(row.table, table);
      }
      if (row.column !== null)
        table.columns.push({
          name: row.column,
          dataType: row.type ?? "",
          dataTypeSchema: row.type_schema ?? undefined,
          isNullable: !row.not_null,
          hasDefaultValue: row.has_default === true,
          // Not needed by the migrator, and finding it means a name lookup (see above).
          isAutoIncrementing: false,
        });
    }
    return [...tables.values()];
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}
