//! Deferred release: native objects wait here, tagged with the submission that last used them,
//! until that submission's fence has signalled.
//!
//! Two operations: [`RetirementQueue::retire`] when the engine drops the last reference to an
//! object, and [`RetirementQueue::collect`] after a fence wait, which hands back everything whose
//! last use has completed. An object never used by any submission (tag 0) is free at once.

use crate::backend::SubmissionId;

/// Native objects waiting for their last submission to complete, each tagged with that submission.
#[derive(Debug)]
pub struct RetirementQueue<T> {
    pending: Vec<(SubmissionId, T)>,
}

impl<T> Default for RetirementQueue<T> {
    fn default() -> Self {
        RetirementQueue { pending: Vec::new() }
    }
}

impl<T> RetirementQueue<T> {
    /// Queues `object`, last used by `last_use`.
    pub fn retire(&mut self, last_use: SubmissionId, object: T) {
        self.pending.push((last_use, object));
    }

    /// Removes and returns every object whose last use is at or before `completed`.
    pub fn collect(&mut self, completed: SubmissionId) -> Vec<T> {
        let mut ready = Vec::new();
        let mut i = 0;
        while i < self.pending.len() {
            if self.pending[i].0 <= completed {
                ready.push(self.pending.swap_remove(i).1);
            } else {
                i += 1;
            }
        }
        ready
    }

    /// Everything still queued (for teardown after the device is idle).
    pub fn drain_all(&mut self) -> Vec<T> {
        self.pending.drain(..).map(|(_, o)| o).collect()
    }

    /// Number of objects still waiting.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Whether nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_is_freed_only_after_its_last_submission_completes() {
        let mut q = RetirementQueue::default();
        q.retire(SubmissionId(3), "a");
        q.retire(SubmissionId(5), "b");
        q.retire(SubmissionId(0), "never used");
        assert_eq!(q.collect(SubmissionId(2)), vec!["never used"]);
        assert_eq!(q.collect(SubmissionId(4)), vec!["a"]);
        assert_eq!(q.len(), 1);
        assert_eq!(q.collect(SubmissionId(5)), vec!["b"]);
        assert!(q.is_empty());
    }
}
