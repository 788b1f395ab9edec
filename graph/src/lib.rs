//! The backend-neutral heart of xnagraph.
//!
//! A game's calls are recorded by one [`FrameBuilder`] into [`FrameCommands`]: a list of [`Node`]s
//! (pass segments, uploads, readbacks, presents) that hold the [`TextureState`]s they name by
//! `Arc`. At a flush the frame is handed to [`compile::compile`], which turns it into a
//! [`FramePlan`]: ordered plan nodes with every load/store op, resolve, mip cascade and barrier
//! decided. A [`Backend`] executes the plan without making any further policy decision, and frees
//! native objects only through the [`retire::RetirementQueue`] once the GPU has finished with them.

#![warn(missing_docs)]

pub mod backend;
pub mod buffer;
pub mod builder;
#[cfg(feature = "capture")]
pub mod capture;
pub mod commands;
pub mod compile;
pub mod custom;
pub mod depth_encoding;
pub mod diagnostics;
pub mod effect;
pub mod flush;
pub mod format;
pub mod geometry;
pub mod native_device;
pub mod null;
pub mod pipeline_request;
pub mod plan;
pub mod present;
pub mod profiling;
pub mod query;
pub mod resource;
pub mod retire;
pub mod snapshot;
pub mod sprite_arena;
pub mod states;
pub mod timing;

pub use backend::{
    AdapterIdentity, AdapterInfo, Backend, BackendError, Capabilities, FormatSupport, LiveObjects,
    SubmissionId, SubmissionWaiter, TransientMemory,
};
pub use buffer::{BufferDesc, BufferId, BufferKind, BufferState, SetDataOptions};
pub use builder::{FrameBuilder, SpareLists};
pub use commands::*;
pub use custom::{CustomDraw, CustomResources, CustomSampler, CustomStage};
pub use depth_encoding::DepthTexels;
pub use diagnostics::Diagnostics;
pub use effect::{EffectKey, EffectState};
pub use format::{DepthFormat, SurfaceFormat};
pub use geometry::*;
pub use pipeline_request::{GeometryPipeline, PipelineRequest, PipelineSink, PipelineStats};
pub use plan::*;
pub use present::{PresentCounters, PresentMode, PresentStats, PresentTarget, SwapchainDesc};
pub use query::{QueryOp, QueryState};
pub use resource::*;
pub use sprite_arena::{HostSpriteMemory, SpriteArena, SpriteMemory, SpriteMemorySource};
pub use timing::{GpuFrameTiming, GpuNodeTime, GpuTimingSupport};
