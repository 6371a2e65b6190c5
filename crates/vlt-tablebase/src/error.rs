//! Errors of opening, building and verifying tables.

use std::path::PathBuf;

/// Why a table operation failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TbError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A layer file is not a table of this format, or is damaged.
    #[error("{path}: {reason}")]
    BadFile {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// The folder holds no table (not even the 0-stone layer).
    #[error("{0}: no tablebase files (vlt-tb-00.bin …)")]
    NoTables(PathBuf),
    /// Verification from a layer the folder does not reach (`vlt tb verify --from`).
    #[error("{dir}: the tables go up to {top} stones, none of {from} or more")]
    NoLayersFrom {
        /// The folder.
        dir: PathBuf,
        /// The first layer asked for.
        from: u32,
        /// The largest layer there.
        top: u32,
    },
    /// A layer beyond what the index supports was asked for.
    #[error("{0} stones is beyond what tables support (at most {max})", max = crate::index::MAX_LAYER)]
    TooManyStones(u32),
    /// Another process of a distributed build failed (it reports why); this one stops with it.
    #[error("another process of the build failed")]
    OtherRank,
    /// Verification found stored values that disagree with their successors.
    #[error("layer {stones}: {bad} of {checked} values disagree with their successors (first: {first})")]
    Mismatch {
        /// The layer.
        stones: u32,
        /// How many disagree.
        bad: u64,
        /// How many were checked.
        checked: u64,
        /// The first position that disagrees, with its stored and recomputed values.
        first: String,
    },
}

impl TbError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> TbError {
        TbError::Io { path: path.into(), source }
    }
}
