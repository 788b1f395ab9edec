//! Devices made and dropped on many threads: SDL's subsystem start-up and shut-down, its hints
//! and device creation and destruction are process-wide and not safe to run concurrently, so
//! the backend serialises them; each device then clears and reads back on its own thread.

use std::sync::Arc;

use xnagraph_graph::{
    Backend, ClearValue, DepthFormat, FrameCommands, FramePlan, Image, LoadOp, Node, PassSegment,
    PlanCost, PlanNode, PlanNodeKind, PlannedAttachment, PlannedPass, Readback, ReadbackId, Rect,
    RenderTargetDesc, RenderTargetUsage, SegmentStart, Slices, StoreOp, SurfaceFormat, TextureDesc,
    TextureState,
};
use xnagraph_sdlgpu::{SdlGpuBackend, SdlGpuConfig};

fn node(kind: PlanNodeKind) -> PlanNode {
    // SDL_gpu tracks resource states itself: the backend ignores barriers.
    PlanNode { buffer_barriers: Vec::new(), barriers: Vec::new(), kind }
}

/// On a validated device of its own: clears an 8×8 target to a colour of `seed`, reads it back
/// and checks every byte, then drops the device and checks validation stayed silent.
fn clear_and_read_back(seed: u8) {
    let config = SdlGpuConfig { debug_mode: true, ..SdlGpuConfig::default() };
    let mut backend = SdlGpuBackend::new(config).expect("an SDL_gpu device");
    let diagnostics = backend.diagnostics();
    let desc = TextureDesc {
        width: 8,
        height: 8,
        mip_levels: 1,
        layers: 1,
        volume_depth: None,
        format: SurfaceFormat::Color,
        render_target: Some(RenderTargetDesc {
            depth: DepthFormat::None,
            sample_count: 0,
            usage: RenderTargetUsage::PreserveContents,
            back_buffer: false,
        }),
    };
    let handle = backend.create_texture(&desc).expect("a target");
    let target: Arc<TextureState> = TextureState::new(desc, handle, backend.retire_sink());
    let want = [seed, 255 - seed, 51, 255];
    let colour = want.map(|c| f32::from(c) / 255.0);
    let segment = PassSegment {
        colors: vec![xnagraph_graph::ColorBinding { target: target.clone(), layer: 0 }],
        start: SegmentStart::Bind { usage: RenderTargetUsage::PreserveContents },
        ops: vec![],
    };
    let readback = Readback {
        image: Image::Color,
        id: ReadbackId(1),
        texture: target.clone(),
        level: 0,
        layer: 0,
        rect: Rect::new(0, 0, 8, 8),
        slices: Slices::FLAT,
    };
    let frame = FrameCommands {
        nodes: vec![Node::Pass(segment), Node::Readback(readback)],
        ..FrameCommands::default()
    };
    let color = PlannedAttachment {
        texture: target.clone(),
        image: Image::Color,
        layer: 0,
        load: LoadOp::Clear(ClearValue::Color(colour)),
        store: StoreOp::Store,
        resolve: false,
    };
    let nodes = vec![
        node(PlanNodeKind::Pass(PlannedPass {
            segment: 0,
            colors: vec![color],
            depth: None,
            ops: vec![],
        })),
        node(PlanNodeKind::Readback { node: 1 }),
    ];
    let plan =
        FramePlan { frame, nodes, cost: PlanCost::default(), transients: Default::default() };
    let submission = backend.submit(&plan).expect("submit");
    drop(plan);
    backend.wait(submission).expect("wait");
    let bytes = backend.take_readback(ReadbackId(1)).expect("readback bytes");
    assert_eq!(bytes.len(), 8 * 8 * 4);
    assert!(bytes.chunks_exact(4).all(|p| p == want), "device {seed}: {bytes:?}");
    drop(target);
    backend.wait_idle().expect("wait_idle");
    drop(backend);
    let messages = diagnostics.take_messages();
    assert!(messages.is_empty(), "device {seed}: validation reported: {messages:#?}");
    assert_eq!(diagnostics.live_native_objects(), 0, "teardown frees every native object");
}

/// A hundred devices, each made, used and dropped on a thread of its own, one thread after
/// another: every one clears and reads back exactly.
#[test]
fn a_hundred_devices_on_a_hundred_threads_one_after_another_clear_and_read_back() {
    for i in 0..100u8 {
        std::thread::spawn(move || clear_and_read_back(i)).join().expect("a device's thread");
    }
}

/// A hundred devices on a hundred threads, eight alive at a time: every device is made, clears
/// and reads back exactly, none reports a validation message, and the process survives.
/// Without the backend's turn-taking, devices failed with "SDL_HINT_GPU_DRIVER vulkan
/// unsupported!" (every run on lavapipe) or crashed the process (an NVIDIA driver).
#[test]
fn a_hundred_devices_on_threads_eight_at_a_time_clear_and_read_back() {
    let mut running = std::collections::VecDeque::new();
    for i in 0..100u8 {
        if running.len() == 8 {
            let oldest: std::thread::JoinHandle<()> = running.pop_front().expect("a thread");
            oldest.join().expect("a device's thread");
        }
        running.push_back(std::thread::spawn(move || clear_and_read_back(i)));
    }
    for thread in running {
        thread.join().expect("a device's thread");
    }
}
