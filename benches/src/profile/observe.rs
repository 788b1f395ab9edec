//! A backend wrapper that watches the plans going through it ([`Watched`] by a [`PlanLog`]): the
//! profiler sees every submitted plan (described per node, and as DOT when asked) without the
//! replay path changing.

use std::time::{Duration, Instant};

use xnagraph_graph::compile::{dependency_graph, to_dot};
use xnagraph_graph::{FramePlan, PlanNodeKind, SubmissionId};

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
    /// The plan's event list, text and dependency edges, when the observer was asked for them
    /// at the time.
    pub detail: Option<PlanDetail>,
}

/// What a report shows of one plan beyond its node descriptions.
#[derive(Clone, Debug)]
pub struct PlanDetail {
    /// Every node's ops.
    pub events: Vec<NodeEvents>,
    /// The plan text (as `XNAGRAPH_PRINT_PLAN` prints it).
    pub text: String,
    /// The dependency DAG's edges: (from node, to node, hazards: `RAW`, `WAR`, `WAW` joined by
    /// `+`), in plan order.
    pub edges: Vec<(usize, usize, String)>,
    /// Each node's pass segment (its index among the flush's commands), for pass nodes.
    pub segments: Vec<Option<usize>>,
}

impl PlanDetail {
    /// The detail of `plan`, whose nodes `nodes` describe.
    pub fn of(plan: &FramePlan, nodes: &[NodeInfo]) -> PlanDetail {
        let graph = dependency_graph(plan);
        let mut edges: Vec<_> = graph
            .edge_indices()
            .filter_map(|e| {
                let (a, b) = graph.edge_endpoints(e)?;
                Some((graph[a], graph[b], graph[e].label()))
            })
            .collect();
        edges.sort_unstable();
        let segments = plan
            .nodes
            .iter()
            .map(|n| match &n.kind {
                PlanNodeKind::Pass(pass) => Some(pass.segment),
                _ => None,
            })
            .collect();
        PlanDetail { events: events::list(plan, nodes), text: plan.to_string(), edges, segments }
    }
}

/// A backend whose every submitted plan is recorded into its watcher's `plans`.
pub type Observed<'a> = Watched<'a, PlanLog>;

/// The plans submitted through an [`Observed`] backend.
pub struct PlanLog {
    /// The plans submitted so far, in order.
    pub plans: Vec<SubmittedPlan>,
    /// Keep the DOT of the plans submitted while this is set.
    pub want_dot: bool,
    /// Keep the [`PlanDetail`] of the plans submitted while this is set.
    pub want_detail: bool,
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
            want_detail: false,
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
        let nodes = if self.describe || self.want_detail { describe(plan) } else { Vec::new() };
        let detail = self.want_detail.then(|| PlanDetail::of(plan, &nodes));
        self.plans.push(SubmittedPlan { submission, nodes, dot, detail });
        self.spent += start.elapsed();
    }
}
