//! Occlusion queries: XNA's `OcclusionQuery`, recorded as a span of one pass.
//!
//! `Begin` and `End` become a pair of [`crate::PassOp::Query`] ops in the pass segment they were
//! called in (the engine refuses an `End` in another segment, so a span never leaves its pass);
//! the compiler keeps them in the pass's planned ops, in place, and keeps a pass with a query
//! even when nothing observes its attachments, because the count is observed. The backend
//! resets the query's native object before the pass, begins and ends the query at the ops, and
//! answers the count once the GPU has produced it, without waiting
//! ([`crate::Backend::query_result`]).
//!
//! The native object is created with the query and freed like an effect's: when the last
//! [`Arc<QueryState>`] drops (the public wrapper's and those of the recorded ops), its handle goes
//! to the backend's retire sink.

use std::sync::Arc;

use crate::resource::{NativeHandle, RetireSink};

/// The shared state of one occlusion query; the ops that name it hold it.
#[derive(Debug)]
pub struct QueryState {
    native: NativeHandle,
    sink: RetireSink,
}

impl QueryState {
    /// A state for a query the backend has just created as `native`.
    pub fn new(native: NativeHandle, sink: RetireSink) -> Arc<Self> {
        Arc::new(QueryState { native, sink })
    }

    /// The backend's name for the query.
    pub fn native(&self) -> NativeHandle {
        self.native
    }
}

impl Drop for QueryState {
    fn drop(&mut self) {
        self.sink.push(self.native);
    }
}

/// One end of a query's span inside a pass.
#[derive(Clone, Debug)]
pub struct QueryOp {
    /// The query.
    pub query: Arc<QueryState>,
    /// `true` at `Begin`, `false` at `End`.
    pub begin: bool,
}
