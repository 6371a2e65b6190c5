//! What the end-to-end tests share. Each test file compiles this module on its own and uses only
//! part of it, so the parts one file leaves unused are not warned about.

#![allow(dead_code)]

pub mod pty;
