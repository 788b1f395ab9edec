//! The replay profiler behind `xnagraph-replay replay`: where CPU and GPU time go, frame by
//! frame and plan node by plan node, when a capture is replayed.
//!
//! [`run`] replays a capture through an [`observe::Observed`] backend (which keeps what every
//! submitted plan's nodes do, [`nodes`]) and gathers per-frame CPU stages and, where the
//! backend writes timestamps, per-node GPU time; [`report`] turns a run into the terminal
//! tables and the JSON summary, [`puffin_out`] and [`trace_out`] into files that profilers open.

pub mod diff;
pub mod events;
pub mod files;
pub mod html;
pub mod inspect;
pub mod layout;
pub mod nodes;
pub mod observe;
pub mod puffin_out;
pub mod report;
pub mod run;
pub mod trace_out;
pub mod watch;
pub mod window;

pub use report::{node_rows, node_table, percentile, stage_table, summary_json, NodeRow};
pub use run::{
    profile, profile_while, timestamp_cost, FrameFigures, ProfileOptions, ProfileRun, TimestampCost,
};
