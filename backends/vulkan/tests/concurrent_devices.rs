//! Devices made and dropped on many threads: one loader per process, one instance shared by
//! the devices alive together, and each validation message reaching the device that caused it.

mod common;

use common::*;
use xnagraph_graph::{
    Access, Backend, ClearValue, FrameCommands, Image, LoadOp, Node, PlanNode, Rect, StoreOp,
};

const SIZE: u32 = 8;

/// On a validated device of its own: clears an off-white target, reads it back and checks
/// every byte, then drops the device and checks validation stayed silent.
fn clear_and_read_back(seed: u8) {
    let mut s = Session::new();
    let target = s.texture(target_desc(SIZE, SIZE, 1, 0));
    let want = [seed, 255 - seed, 51, 255];
    let colour = want.map(|c| f32::from(c) / 255.0);
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(segment(&target, vec![clear_op(colour)])),
            readback(2, &target, 0, Rect::new(0, 0, SIZE as i32, SIZE as i32)),
        ],
        ..FrameCommands::default()
    };
    let load = LoadOp::Clear(ClearValue::Color(colour));
    let nodes = vec![
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![barrier(
                &target,
                Image::Color,
                0..1,
                Access::Nothing,
                Access::ColorAttachmentWrite,
            )],
            kind: pass(
                0,
                vec![attachment(&target, Image::Color, load, StoreOp::Store, false)],
                vec![],
            ),
        },
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![barrier(
                &target,
                Image::Color,
                0..1,
                Access::ColorAttachmentWrite,
                Access::TransferRead,
            )],
            kind: xnagraph_graph::PlanNodeKind::Readback { node: 1 },
        },
    ];
    let bytes = submit_and_read(&mut s, plan(frame, nodes), 2);
    assert_eq!(bytes.len(), (SIZE * SIZE * 4) as usize);
    assert!(bytes.chunks_exact(4).all(|p| p == want), "device {seed}: {bytes:?}");
    drop(target);
    assert_all_freed(&mut s);
    s.finish();
}

/// A hundred devices, each made, used and dropped on a thread of its own, one thread after
/// another: every one clears and reads back exactly, the loader was loaded once, and the
/// instance was created at most once for them (never again for a device made after the last
/// one was dropped: reloading the driver per device is what ran out of static TLS on NVIDIA).
#[test]
fn a_hundred_devices_on_a_hundred_threads_one_after_another_clear_and_read_back() {
    let before = xnagraph_vulkan::instances_created();
    for i in 0..100u8 {
        std::thread::spawn(move || clear_and_read_back(i)).join().expect("a device's thread");
    }
    assert_eq!(xnagraph_vulkan::loader_loads(), 1, "the loader is loaded once per process");
    assert!(xnagraph_vulkan::instances_created() - before <= 1, "one instance for all of them");
}

/// A hundred devices on a hundred threads, eight alive at a time: every one clears and reads
/// back exactly.
#[test]
fn a_hundred_devices_on_threads_eight_at_a_time_clear_and_read_back() {
    let mut running = std::collections::VecDeque::new();
    for i in 0..100u8 {
        if running.len() == 8 {
            let oldest: std::thread::JoinHandle<()> = running.pop_front().unwrap();
            oldest.join().expect("a device's thread");
        }
        running.push_back(std::thread::spawn(move || clear_and_read_back(i)));
    }
    for thread in running {
        thread.join().expect("a device's thread");
    }
    assert_eq!(xnagraph_vulkan::loader_loads(), 1, "the loader is loaded once per process");
}

/// While one device is alive, a hundred more made and dropped on other threads use its
/// instance: no instance is created for them, and the loader is not loaded again.
#[test]
fn devices_alive_together_share_one_loader_and_one_instance() {
    let keeper = Session::new();
    let before = xnagraph_vulkan::instances_created();
    assert!(before >= 1, "the keeper's instance was counted");
    for i in 0..100u8 {
        std::thread::spawn(move || clear_and_read_back(i)).join().expect("a device's thread");
    }
    assert_eq!(
        xnagraph_vulkan::instances_created(),
        before,
        "devices made while another is alive share its instance"
    );
    assert_eq!(xnagraph_vulkan::loader_loads(), 1);
    keeper.finish();
}

/// Devices on eight threads share one instance; one of them misuses Vulkan (a readback
/// without its barrier): the message reaches that device, and none of the others.
#[test]
fn a_validation_message_reaches_only_the_device_whose_misuse_caused_it() {
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(8));
    let threads: Vec<_> = (0..8u8)
        .map(|i| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let mut s = Session::new();
                // Every device is alive before the culprit misbehaves.
                barrier.wait();
                if i == 3 {
                    misuse(&mut s);
                    let messages = s.diagnostics.take_messages();
                    assert!(!messages.is_empty(), "the culprit hears its own misuse");
                }
                barrier.wait();
                let messages = s.diagnostics.take_messages();
                assert!(messages.is_empty(), "device {i} heard another's: {messages:#?}");
                s.finish();
            })
        })
        .collect();
    for thread in threads {
        thread.join().expect("a device's thread");
    }
}

/// A clear, then a readback whose barrier is missing: the image is still a colour attachment
/// when it is copied.
fn misuse(s: &mut Session) {
    let target = s.texture(target_desc(SIZE, SIZE, 1, 0));
    let colour = [0.0, 1.0, 0.0, 1.0];
    let frame = FrameCommands {
        nodes: vec![
            Node::Pass(segment(&target, vec![clear_op(colour)])),
            readback(2, &target, 0, Rect::new(0, 0, SIZE as i32, SIZE as i32)),
        ],
        ..FrameCommands::default()
    };
    let load = LoadOp::Clear(ClearValue::Color(colour));
    let nodes = vec![
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![barrier(
                &target,
                Image::Color,
                0..1,
                Access::Nothing,
                Access::ColorAttachmentWrite,
            )],
            kind: pass(
                0,
                vec![attachment(&target, Image::Color, load, StoreOp::Store, false)],
                vec![],
            ),
        },
        PlanNode {
            buffer_barriers: Vec::new(),
            barriers: vec![],
            kind: xnagraph_graph::PlanNodeKind::Readback { node: 1 },
        },
    ];
    let submission = s.backend.submit(&plan(frame, nodes)).expect("submit");
    s.backend.wait(submission).expect("wait");
    drop(target);
    assert_all_freed(s);
}
