//! The methods that a training loop calls at every step (`step`, `last`, `legal_actions`), put
//! on each Python subclass of the environments' native cores with CPython's cheapest calling
//! conventions.
//!
//! Two things make a native method slow to call from Python. CPython 3.11 specialises the call of
//! a method descriptor only when the object's type is exactly the descriptor's class, and the
//! environments are Python subclasses of the native classes (`raw_env` of `AecCore`, Gymnasium's
//! class of `GymCore`): their calls take the generic path, every time. And under the stable ABI of
//! CPython 3.9 (`abi3-py39`), PyO3 hands every method that takes arguments a tuple of them and a
//! dict of keywords (`METH_VARARGS | METH_KEYWORDS`): a tuple allocated, tracked by the collector
//! and freed at each call, the arguments matched by name. So each subclass gets, when it is made
//! (`__init_subclass__`), its own descriptors of these methods: `METH_O` for one argument and
//! `METH_NOARGS` for none (both as old as the stable ABI), whose calls CPython then runs inline.
//!
//! A body is wrapped in the trampoline PyO3's own methods of that shape use (the GIL token, panics
//! turned into `PanicException`, errors raised), so that it is ordinary PyO3 code; the methods are
//! plain method descriptors, which `inspect`, `help` and subclasses see as any built-in method.
#![allow(unsafe_code)] // the method table entries and the descriptors, each with its SAFETY note

use pyo3::exceptions::PyAttributeError;
use pyo3::ffi;
use pyo3::impl_::trampoline::{MethodDef, binaryfunc, cfunction_with_keywords, noargs};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::ffi::CStr;
use std::marker::PhantomData;

/// A method's name, and its docstring starting with the signature CPython reads for
/// `inspect.signature` (`"name($self, arg, /)\n--\n\n…"`).
pub(crate) trait Named {
    const NAME: &'static CStr;
    const DOC: &'static CStr;
}

/// A method of no arguments (`METH_NOARGS`).
pub(crate) trait Method0: Named {
    fn call<'py>(slf: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>>;
}

/// A method of one positional argument (`METH_O`).
pub(crate) trait Method1: Named {
    fn call<'py>(slf: &Bound<'py, PyAny>, arg: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>>;
}

/// A method of positional and keyword arguments (`METH_VARARGS | METH_KEYWORDS`), for one whose
/// usual call has none (which costs the interpreter no tuple then) but which takes options.
pub(crate) trait MethodKw: Named {
    fn call<'py>(
        slf: &Bound<'py, PyAny>,
        args: &Bound<'py, PyTuple>,
        kwargs: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>>;
}

/// # Safety
/// `slf` is a valid borrowed pointer and the GIL is held (the trampoline's call).
unsafe fn body0<M: Method0>(py: Python<'_>, slf: *mut ffi::PyObject) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: a valid borrowed pointer with the GIL held (the caller's promise).
    let slf = unsafe { Bound::from_borrowed_ptr(py, slf) };
    Ok(M::call(&slf)?.into_ptr())
}

/// # Safety
/// `slf` and `arg` are valid borrowed pointers and the GIL is held (the trampoline's call).
unsafe fn body1<M: Method1>(
    py: Python<'_>,
    slf: *mut ffi::PyObject,
    arg: *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: valid borrowed pointers with the GIL held (the caller's promise).
    let (slf, arg) = unsafe { (Bound::from_borrowed_ptr(py, slf), Bound::from_borrowed_ptr(py, arg)) };
    Ok(M::call(&slf, &arg)?.into_ptr())
}

/// # Safety
/// `slf` and `args` are valid borrowed pointers (a tuple), `kwargs` one or NULL (a dict), and
/// the GIL is held (the trampoline's call).
unsafe fn body_kw<M: MethodKw>(
    py: Python<'_>,
    slf: *mut ffi::PyObject,
    args: *mut ffi::PyObject,
    kwargs: *mut ffi::PyObject,
) -> PyResult<*mut ffi::PyObject> {
    // SAFETY: valid borrowed pointers of these types with the GIL held (CPython's convention for
    // METH_VARARGS | METH_KEYWORDS, and the caller's promise).
    let (slf, args, kwargs) = unsafe {
        (
            Bound::from_borrowed_ptr(py, slf),
            Bound::from_borrowed_ptr(py, args).cast_into_unchecked::<PyTuple>(),
            Bound::from_borrowed_ptr_or_opt(py, kwargs).map(|k| k.cast_into_unchecked::<PyDict>()),
        )
    };
    Ok(M::call(&slf, &args, kwargs.as_ref())?.into_ptr())
}

/// PyO3's trampolines calling the bodies above.
struct Trampoline<M>(PhantomData<M>);

impl<M: Method0> MethodDef<noargs::Func> for Trampoline<M> {
    const METH: noargs::Func = body0::<M>;
}

impl<M: Method1> MethodDef<binaryfunc::Func> for Trampoline<M> {
    const METH: binaryfunc::Func = body1::<M>;
}

impl<M: MethodKw> MethodDef<cfunction_with_keywords::Func> for Trampoline<M> {
    const METH: cfunction_with_keywords::Func = body_kw::<M>;
}

/// One method's table entry.
pub(crate) struct Def(ffi::PyMethodDef);

fn def<M: Named>(meth: ffi::PyMethodDefPointer, flags: std::ffi::c_int) -> Def {
    Def(ffi::PyMethodDef {
        ml_name: M::NAME.as_ptr(),
        ml_meth: meth,
        ml_flags: flags,
        ml_doc: M::DOC.as_ptr(),
    })
}

/// The entry of a method of no arguments.
pub(crate) fn no_args<M: Method0>() -> Def {
    def::<M>(ffi::PyMethodDefPointer { PyCFunction: noargs::<Trampoline<M>> }, ffi::METH_NOARGS)
}

/// The entry of a method of one argument.
pub(crate) fn one_arg<M: Method1>() -> Def {
    def::<M>(ffi::PyMethodDefPointer { PyCFunction: binaryfunc::<Trampoline<M>> }, ffi::METH_O)
}

/// The entry of a method of positional and keyword arguments.
pub(crate) fn with_keywords<M: MethodKw>() -> Def {
    def::<M>(
        ffi::PyMethodDefPointer { PyCFunctionWithKeywords: cfunction_with_keywords::<Trampoline<M>> },
        ffi::METH_VARARGS | ffi::METH_KEYWORDS,
    )
}

/// Puts the methods `defs` on `cls` (`core` itself, or a subclass of it being made) as
/// descriptors of `cls` itself. A method that `cls` or a class between it and `core` defines
/// otherwise (a Python override) is left alone: only a name that `cls` lacks or that still finds a
/// native method of `core` (or one this function put on a class above) gets the new descriptor.
pub(crate) fn install<const N: usize>(
    cls: &Bound<'_, PyType>,
    core: &Bound<'_, PyType>,
    defs: [Def; N],
) -> PyResult<()> {
    let py = cls.py();
    let method_descriptor = py.import("types")?.getattr("MethodDescriptorType")?;
    for Def(d) in defs {
        // SAFETY: `ml_name` is one of the `&'static CStr` names above.
        let name = unsafe { CStr::from_ptr(d.ml_name) }.to_str().expect("an ASCII name");
        let native = match cls.getattr(name) {
            Ok(found) => {
                found.is_instance(&method_descriptor)?
                    && found.getattr("__objclass__")?.cast::<PyType>()?.is_subclass(core)?
            }
            Err(e) if e.is_instance_of::<PyAttributeError>(py) => true,
            Err(e) => return Err(e),
        };
        if !native {
            continue;
        }
        // A descriptor keeps a pointer to its table entry for as long as the class lives: the
        // entry is leaked, one per method of each class made.
        let def = Box::leak(Box::new(d));
        // SAFETY: `cls` is a valid type object and `def` a valid entry that outlives it; the
        // result is a new reference or NULL with an exception set, which `from_owned_ptr_or_err`
        // takes.
        let descr =
            unsafe { Bound::from_owned_ptr_or_err(py, ffi::PyDescr_NewMethod(cls.as_type_ptr(), def)) }?;
        cls.setattr(name, descr)?;
    }
    Ok(())
}
