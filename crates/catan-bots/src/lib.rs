//! Bot players over `catan-core` (work in progress).
