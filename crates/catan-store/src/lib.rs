//! Game log storage (work in progress).
