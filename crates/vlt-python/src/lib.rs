//! Python bindings of vlt, the module `vlt._vlt` that the Python package `vlt` re-exports: the rules
//! (positions, games, records, perft), the engine, the endgame tables, and the native cores of the
//! reinforcement-learning environments (one game for PettingZoo, Gymnasium and OpenSpiel; many
//! games at once for `vlt.vector`).
//!
//! Everything here calls the library crates' public APIs; no rule is written twice. Errors in what
//! the caller gives become `ValueError`s with the messages the command line prints.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod aec;
mod callconv;
mod engine;
mod env;
mod game;
mod gym;
mod opponent;
mod position;
mod recycle;
mod smalldict;
mod tablebase;
mod vector;

/// A `ValueError` carrying `message` (the command line's wording).
pub(crate) fn value_error(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

#[pymodule]
fn _vlt(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    position::register(m)?;
    game::register(m)?;
    engine::register(m)?;
    tablebase::register(m)?;
    env::register(m)?;
    aec::register(m)?;
    gym::register(m)?;
    vector::register(m)?;
    Ok(())
}
