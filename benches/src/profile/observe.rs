//! A backend wrapper that watches the plans going through it ([`Watched`] by a [`PlanLog`]): the profiler sees every
//! submitted plan (described per node, and as DOT when asked) without the replay path
//! changing.

use std::time::{Duration, Instant};

use xnagraph_graph::compile::to_dot;
use xnagraph_graph::{FramePlan, SubmissionId};

use super::events::{self, NodeEvents};
use super::nodes::{describe, NodeInfo};
use super::watch::{Watched, Watcher};

/// One submitted plan, as the profiler keeps it.
#[derive(Clone, Debug)]
pub struct SubmittedPlan {
    /// The submission it went out in.
    pub submission: SubmissionId,
    /// Its nodes, in plan order.
    pub nodes: Vec<NodeInfo>,
    /// The plan as DOT, when the observer was asked for it at the time.
    pub dot: Option<String>,
    /// The plan's event list, when the observer was asked for it at the time.
    pub events: Option<Vec<NodeEvents>>,
}

/// A backend whose every submitted plan is recorded into its watcher's `plans`.
pub type Observed<'a> = Watched<'a, PlanLog>;

/// The plans submitted through an [`Observed`] backend.
pub struct PlanLog {
    /// The plans submitted so far, in order.
    pub plans: Vec<SubmittedPlan>,
    /// Keep the DOT of the plans submitted while this is set.
    pub want_dot: bool,
    /// Keep the event list of the plans submitted while this is set.
    pub want_events: bool,
    /// Describe each plan's nodes (on by default; off, a plan keeps its submission only).
    pub describe: bool,
    /// CPU time spent so far describing plans (and writing their DOT): the observer's own
    /// work, inside the `submit` call a replayer times, which the profile takes out of the
    /// submission's time.
    pub spent: Duration,
}

impl Default for PlanLog {
    fn default() -> Self {
        PlanLog {
            plans: Vec::new(),
            want_dot: false,
            want_events: false,
            describe: true,
            spent: Duration::ZERO,
        }
    }
}

impl Watcher for PlanLog {
    /// Describes the plan just submitted, adding the time that takes to [`Self::spent`].
    fn submitted(&mut self, plan: &FramePlan, submission: SubmissionId, _: Duration) {
        let start = Instant::now();
        let dot = self.want_dot.then(|| to_dot(plan));
        let nodes = if self.describe { describe(plan) } else { Vec::new() };
        let events = self.want_events.then(|| events::list(plan, &describe(plan)));
        self.plans.push(SubmittedPlan { submission, nodes, dot, events });
        self.spent += start.elapsed();
    }
}
