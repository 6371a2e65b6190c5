//! Reading and writing the environments' small dicts (an entry per agent, or an observation's
//! two arrays) at every step.
//!
//! The keys are strings the environment interned and handed out itself, so a key is usually the
//! very object stored in the dict: scanning a dict of two entries for it by identity
//! (`PyDict_Next`, no hashing) costs a fraction of a lookup. Whatever the scan does not find
//! that way (a copy of the key, a dict a caller put in place of the environment's, a subclass)
//! goes through Python's ordinary subscript, so the result is always what `d[key]` gives.
#![allow(unsafe_code)] // the borrowed scan, with its SAFETY note

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Dicts of at most this many entries are scanned; larger ones are looked up.
const SCAN: isize = 4;

/// The value stored under `key` itself (the same object) in the exact dict `d`, if `d` is small.
#[inline]
fn scan<'py>(d: &Bound<'py, PyDict>, key: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    let py = d.py();
    // SAFETY: a valid dict with the GIL held; `PyDict_Size` does not fail on a dict.
    if unsafe { pyo3::ffi::PyDict_Size(d.as_ptr()) } > SCAN {
        return None;
    }
    let mut pos: pyo3::ffi::Py_ssize_t = 0;
    let (mut k, mut v) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: iterating a valid dict with borrowed results, the GIL held, and nothing run
    // meanwhile that could change the dict; the value found is taken as a new reference before
    // anything else runs.
    unsafe {
        while pyo3::ffi::PyDict_Next(d.as_ptr(), &mut pos, &mut k, &mut v) != 0 {
            if k == key.as_ptr() {
                return Some(Bound::from_borrowed_ptr(py, v));
            }
        }
    }
    None
}

/// `d[key]`.
#[inline]
pub(crate) fn get<'py>(d: &Bound<'py, PyAny>, key: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if let Ok(dict) = d.cast_exact::<PyDict>() {
        if let Some(v) = scan(dict, key) {
            return Ok(v);
        }
        if let Some(v) = dict.get_item(key)? {
            return Ok(v);
        }
    }
    d.get_item(key)
}

/// `d[key] = value`, skipped when `d` is an exact dict that already holds `value` itself under
/// `key` itself (the write would change nothing).
#[inline]
pub(crate) fn set<'py>(
    d: &Bound<'py, PyAny>,
    key: &Bound<'py, PyAny>,
    value: &Bound<'py, PyAny>,
) -> PyResult<()> {
    match d.cast_exact::<PyDict>() {
        Ok(dict) if scan(dict, key).is_some_and(|v| v.is(value)) => Ok(()),
        Ok(dict) => dict.set_item(key, value),
        Err(_) => d.set_item(key, value),
    }
}

/// True when the exact dict `d` holds exactly the `entries`, each value under its key, both the
/// very objects given.
#[inline]
pub(crate) fn holds_exactly<'py>(
    d: &Bound<'py, PyDict>,
    entries: &[(&Bound<'py, PyAny>, &Bound<'py, PyAny>)],
) -> bool {
    d.len() == entries.len() && entries.iter().all(|(k, v)| scan(d, k).is_some_and(|found| found.is(*v)))
}
