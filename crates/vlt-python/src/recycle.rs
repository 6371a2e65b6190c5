//! numpy arrays handed to Python at every step, recycled: an array (or a dict of arrays) that
//! nobody but its pool holds any more is written again in place instead of a new one being made.
//!
//! Making a small numpy array costs more than a whole move of the environments (a few hundred
//! nanoseconds, against tens). Reusing one is safe only when nothing else can see it, and the
//! reference count says exactly that: a Python object that holds an array (a variable, a list, a
//! view, a buffer export, a torch tensor from `torch.from_numpy`) holds a reference to it. So an
//! observation handed out is never changed while anyone holds it: to its holders each step's is a
//! fresh array, as the frameworks' conventions expect. Loops that drop each observation before the
//! next (or keep only the last one) get their arrays back from a pool of a few; code that keeps
//! them all gets new ones each time.
#![allow(unsafe_code)] // the reference counts and the in-place writes, each with its SAFETY note

use crate::smalldict;
use numpy::npyffi::flags::{NPY_ARRAY_C_CONTIGUOUS, NPY_ARRAY_WRITEABLE};
use numpy::{Element, PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// How many arrays a pool keeps: one in use and one the caller still holds from the step before
/// (as in `obs, … = env.step(policy(obs))`), with room to spare.
const SLOTS: usize = 4;

pub(crate) fn refcnt(obj: &Bound<'_, PyAny>) -> isize {
    // SAFETY: a valid object (the `Bound` holds it), and the GIL is held.
    unsafe { pyo3::ffi::Py_REFCNT(obj.as_ptr()) }
}

/// One recycled array of `N` elements and the dtype it was made with.
struct Slot<T> {
    array: Py<PyArray1<T>>,
    descr: usize,
}

impl<T: Element + Copy> Slot<T> {
    fn new(py: Python<'_>, values: &[T]) -> Slot<T> {
        let a = PyArray1::from_slice(py, values);
        let descr = a.dtype().as_ptr() as usize;
        Slot { array: a.unbind(), descr }
    }

    /// True when the array is still what it was made as (one dimension of `len` contiguous,
    /// writeable elements of its dtype; whoever held it may have changed any of that) and
    /// nothing holds it but the pool and `owners` others that the caller knows of.
    #[inline]
    fn is_free(&self, py: Python<'_>, len: usize, owners: isize) -> bool {
        let a = self.array.bind(py);
        if refcnt(a.as_any()) != 1 + owners {
            return false;
        }
        // SAFETY: reads fields of a valid array object (numpy's ABI, not Python's).
        let f = unsafe { &(*a.as_array_ptr()).fields };
        let want = NPY_ARRAY_WRITEABLE | NPY_ARRAY_C_CONTIGUOUS;
        // SAFETY: `dimensions` holds `nd` entries, and `nd` is 1.
        f.nd == 1
            && unsafe { *f.dimensions } as usize == len
            && f.flags & want == want
            && f.descr as usize == self.descr
    }

    /// Writes `values` into the array (which `is_free`).
    fn write(&self, py: Python<'_>, values: &[T]) {
        // SAFETY: `is_free` found no holder but the pool (and the caller's dict, which the caller
        // has not handed out), so no other reference to the data exists while it is written; the
        // array has `values.len()` contiguous elements of type `T`.
        unsafe { self.array.bind(py).as_slice_mut() }.expect("contiguous").copy_from_slice(values);
    }
}

/// A pool of arrays of `N` elements.
pub(crate) struct Arrays<T, const N: usize> {
    slots: Vec<Slot<T>>,
    next: usize,
}

impl<T: Element + Copy, const N: usize> Arrays<T, N> {
    pub(crate) fn new() -> Self {
        Arrays { slots: Vec::new(), next: 0 }
    }

    /// An array holding `values`: one of the pool's that nobody else holds, or a new one.
    pub(crate) fn take<'py>(&mut self, py: Python<'py>, values: &[T; N]) -> Bound<'py, PyArray1<T>> {
        if let Some(s) = self.slots.iter().find(|s| s.is_free(py, N, 0)) {
            s.write(py, values);
            return s.array.bind(py).clone();
        }
        let s = Slot::new(py, values);
        let a = s.array.bind(py).clone();
        put(&mut self.slots, &mut self.next, s);
        a
    }
}

/// Adds `s` to a pool, in place of its oldest member once it is full (which its holder keeps).
fn put<S>(slots: &mut Vec<S>, next: &mut usize, s: S) {
    if slots.len() < SLOTS {
        slots.push(s);
    } else {
        slots[*next] = s;
        *next = (*next + 1) % SLOTS;
    }
}

/// One recycled dict of an observation: `{"observation": float32[14], "action_mask": int8[6]}`,
/// or without the observation `{"action_mask": int8[6]}` (Gymnasium's `info`).
struct DictSlot {
    dict: Py<PyDict>,
    obs: Option<Slot<f32>>,
    mask: Slot<i8>,
}

/// A pool of observation dicts.
pub(crate) struct Dicts {
    slots: Vec<DictSlot>,
    next: usize,
    with_obs: bool,
}

impl Dicts {
    /// Dicts with `"observation"` and `"action_mask"` (`with_obs`), or `"action_mask"` alone.
    pub(crate) fn new(with_obs: bool) -> Dicts {
        Dicts { slots: Vec::new(), next: 0, with_obs }
    }

    #[inline]
    fn is_free(py: Python<'_>, s: &DictSlot) -> bool {
        let d = s.dict.bind(py);
        let mask = s.mask.array.bind(py).as_any();
        refcnt(d.as_any()) == 1
            && s.mask.is_free(py, 6, 1)
            && s.obs.as_ref().is_none_or(|o| o.is_free(py, 14, 1))
            && match &s.obs {
                Some(o) => smalldict::holds_exactly(
                    d,
                    &[
                        (pyo3::intern!(py, "action_mask"), mask),
                        (pyo3::intern!(py, "observation"), o.array.bind(py).as_any()),
                    ],
                ),
                None => smalldict::holds_exactly(d, &[(pyo3::intern!(py, "action_mask"), mask)]),
            }
    }

    /// A dict holding `obs` (when the pool's dicts have it) and `mask`: one of the pool's that
    /// nobody else holds, or a new one.
    pub(crate) fn take<'py>(
        &mut self,
        py: Python<'py>,
        obs: &[f32; 14],
        mask: &[i8; 6],
    ) -> PyResult<Bound<'py, PyDict>> {
        if let Some(s) = self.slots.iter().find(|s| Dicts::is_free(py, s)) {
            if let Some(o) = &s.obs {
                o.write(py, obs);
            }
            s.mask.write(py, mask);
            return Ok(s.dict.bind(py).clone());
        }
        let d = PyDict::new(py);
        let o = self.with_obs.then(|| Slot::new(py, obs));
        if let Some(o) = &o {
            d.set_item(pyo3::intern!(py, "observation"), o.array.bind(py))?;
        }
        let m = Slot::new(py, mask);
        d.set_item(pyo3::intern!(py, "action_mask"), m.array.bind(py))?;
        put(&mut self.slots, &mut self.next, DictSlot { dict: d.clone().unbind(), obs: o, mask: m });
        Ok(d)
    }
}

/// A recycled result tuple: the one returned by the call before, refilled once nobody but the
/// pool holds it (as CPython's own `zip` and `enumerate` recycle theirs). A loop that unpacks each
/// result at once (`obs, reward, terminated, truncated, info = env.step(a)`) gets the same tuple
/// back, and no new one to allocate, track and free.
pub(crate) struct Tuple {
    tuple: Option<Py<PyTuple>>,
}

impl Tuple {
    pub(crate) fn new() -> Tuple {
        Tuple { tuple: None }
    }

    /// A tuple of `items`.
    pub(crate) fn fill<'py, const N: usize>(
        &mut self,
        py: Python<'py>,
        items: [Bound<'py, PyAny>; N],
    ) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(t) = &self.tuple {
            let t = t.bind(py);
            if refcnt(t.as_any()) == 1 && t.len() == N {
                for (i, item) in items.into_iter().enumerate() {
                    // SAFETY: a tuple of N items that nothing else references (so it may be
                    // changed: PyTuple_SetItem insists on it), `i < N`; the new item's reference
                    // is handed to the tuple, which releases the old one.
                    unsafe {
                        pyo3::ffi::PyTuple_SetItem(t.as_ptr(), i as pyo3::ffi::Py_ssize_t, item.into_ptr())
                    };
                }
                // SAFETY: a valid tuple; the collector may have stopped tracking it while it held
                // only atomic items (CPython does that to tuples), and now it may hold containers.
                unsafe {
                    if pyo3::ffi::PyObject_GC_IsTracked(t.as_ptr()) == 0 {
                        pyo3::ffi::PyObject_GC_Track(t.as_ptr().cast());
                    }
                }
                return Ok(t.clone());
            }
        }
        let t = PyTuple::new(py, items)?;
        self.tuple = Some(t.clone().unbind());
        Ok(t)
    }
}
