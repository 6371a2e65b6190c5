//! The typed words of the schema in PostgreSQL: each is stored as the same text as in SQLite (a
//! mode's key, `B`/`A`, `B:time`, a result's notation, a clock's JSON) and read back typed, so a
//! bad value in the database is an error, never a guess.

use crate::clock::Clock;
use crate::kinds::{Forfeit, Mode, Side, StoredResult};
use bytes::BytesMut;
use std::error::Error;
use tokio_postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

type BoxError = Box<dyn Error + Sync + Send>;

/// Implements `ToSql`/`FromSql` for a type stored as the text `$to` makes and `$from` reads.
macro_rules! pg_text {
    ($t:ty, $to:expr, $from:expr) => {
        impl ToSql for $t {
            fn to_sql(&self, ty: &Type, out: &mut BytesMut) -> Result<IsNull, BoxError> {
                let text: String = $to(self)?;
                text.as_str().to_sql(ty, out)
            }
            fn accepts(ty: &Type) -> bool {
                <&str as ToSql>::accepts(ty)
            }
            to_sql_checked!();
        }
        impl<'a> FromSql<'a> for $t {
            fn from_sql(ty: &Type, raw: &'a [u8]) -> Result<Self, BoxError> {
                let s = <&str as FromSql>::from_sql(ty, raw)?;
                $from(s).ok_or_else(|| format!("not a {}: {s:?}", stringify!($t)).into())
            }
            fn accepts(ty: &Type) -> bool {
                <&str as FromSql>::accepts(ty)
            }
        }
    };
}

pg_text!(Mode, |m: &Mode| Ok::<_, BoxError>(m.as_str().to_string()), Mode::from_key);
pg_text!(Side, |s: &Side| Ok::<_, BoxError>(s.as_str().to_string()), Side::from_key);
pg_text!(Forfeit, |f: &Forfeit| Ok::<_, BoxError>(f.as_str().to_string()), Forfeit::from_key);
pg_text!(StoredResult, |r: &StoredResult| Ok::<_, BoxError>(r.0.to_string()), |s: &str| StoredResult::parse(
    s
)
.map(StoredResult));
pg_text!(Clock, |c: &Clock| serde_json::to_string(c).map_err(BoxError::from), |s: &str| {
    serde_json::from_str::<Clock>(s).ok()
});
