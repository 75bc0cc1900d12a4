//! What the two backends do differently in the statements they share, so
//! that each of those statements is written once, over [`Dialect`]
//! (`writes.rs`, `queries.rs`): PostgreSQL binds UUIDs and times as its
//! UUID and TIMESTAMPTZ and casts JSON text to JSONB; SQLite keeps all three
//! as text (times as the records' RFC 3339, which sorts as text; see
//! migrations/sqlite). Both take `$n` parameters (sqlx's SQLite driver
//! numbers `$n` as it does `?n`), so the SQL text is otherwise the same.

use crate::decode::ReadRow;
use crate::model::format_time;
use chrono::{DateTime, Utc};
use sqlx::query::Query;
use sqlx::{Database, Encode, IntoArguments, Postgres, Sqlite, Type};
use uuid::Uuid;

/// One parameter of a shared statement, as the rows hold it; each backend
/// binds it in the type its column has there ([`Dialect::bind`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg<'q> {
    /// A game id.
    Id(Uuid),
    /// A time.
    Time(DateTime<Utc>),
    /// Text, or JSON text.
    Text(&'q str),
    /// Nullable text, or nullable JSON text.
    OptText(Option<&'q str>),
    /// A BIGINT.
    Int(i64),
    /// A seat: a SMALLINT on PostgreSQL, an INTEGER (any width) on SQLite.
    Seat(u8),
    /// A boolean.
    Flag(bool),
}

/// A shared statement with the parameters bound so far.
pub(crate) type Stmt<'q, DB> = Query<'q, DB, <DB as Database>::Arguments<'q>>;

/// A backend's way with the shared statements. Its rows are read through
/// [`ReadRow`]; its bound statements run on any of its executors.
pub(crate) trait Dialect:
    Database<Row: ReadRow> + for<'q> Database<Arguments<'q>: IntoArguments<'q, Self>>
{
    /// What follows a JSON parameter's `$n`: PostgreSQL is sent JSON as
    /// text, which a JSONB column takes only cast.
    const JSON: &'static str;

    /// `q` with `arg` bound as its next parameter.
    fn bind<'q>(q: Stmt<'q, Self>, arg: Arg<'q>) -> Stmt<'q, Self>;

    /// `INSERT INTO {into}` (an action's table, columns and values) made
    /// to skip a row whose `(game_id, seq)` is taken, writing nothing.
    fn insert_action_if_absent(into: &str) -> String;

    /// How many rows a statement wrote.
    fn rows_affected(done: &Self::QueryResult) -> u64;
}

/// `sql` with `args` bound as its `$1`, `$2`, ... in order.
pub(crate) fn query<'q, DB: Dialect>(
    sql: &'q str,
    args: impl IntoIterator<Item = Arg<'q>>,
) -> Stmt<'q, DB> {
    args.into_iter().fold(sqlx::query(sql), DB::bind)
}

impl<'q> Arg<'q> {
    /// Binds this to `q`, an id as `id` turns it into a value of `DB` and a
    /// time as `time` does: the rest binds alike on both backends.
    fn bind_as<DB, I, T>(
        self,
        q: Stmt<'q, DB>,
        id: fn(Uuid) -> I,
        time: fn(DateTime<Utc>) -> T,
    ) -> Stmt<'q, DB>
    where
        DB: Database,
        I: 'q + Encode<'q, DB> + Type<DB>,
        T: 'q + Encode<'q, DB> + Type<DB>,
        &'q str: Encode<'q, DB> + Type<DB>,
        Option<&'q str>: Encode<'q, DB> + Type<DB>,
        i64: Encode<'q, DB> + Type<DB>,
        i16: Encode<'q, DB> + Type<DB>,
        bool: Encode<'q, DB> + Type<DB>,
    {
        match self {
            Arg::Id(v) => q.bind(id(v)),
            Arg::Time(v) => q.bind(time(v)),
            Arg::Text(v) => q.bind(v),
            Arg::OptText(v) => q.bind(v),
            Arg::Int(v) => q.bind(v),
            Arg::Seat(v) => q.bind(i16::from(v)),
            Arg::Flag(v) => q.bind(v),
        }
    }
}

/// Native UUID and TIMESTAMPTZ parameters; JSON cast to JSONB.
impl Dialect for Postgres {
    const JSON: &'static str = "::jsonb";

    fn bind<'q>(q: Stmt<'q, Self>, arg: Arg<'q>) -> Stmt<'q, Self> {
        arg.bind_as(q, |id| id, |t| t)
    }

    fn insert_action_if_absent(into: &str) -> String {
        format!("INSERT INTO {into} ON CONFLICT (game_id, seq) DO NOTHING")
    }

    fn rows_affected(done: &Self::QueryResult) -> u64 {
        done.rows_affected()
    }
}

/// UUIDs and times as text (times as the records' RFC 3339); JSON is text
/// already.
impl Dialect for Sqlite {
    const JSON: &'static str = "";

    fn bind<'q>(q: Stmt<'q, Self>, arg: Arg<'q>) -> Stmt<'q, Self> {
        arg.bind_as(q, |id| id.to_string(), format_time)
    }

    fn insert_action_if_absent(into: &str) -> String {
        // OR IGNORE skips only the taken key here: foreign keys still fail.
        format!("INSERT OR IGNORE INTO {into}")
    }

    fn rows_affected(done: &Self::QueryResult) -> u64 {
        done.rows_affected()
    }
}
