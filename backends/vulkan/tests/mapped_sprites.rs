//! Sprite arenas in mapped memory (`Backend::sprite_memory`): a frame's sprites written there
//! are drawn where they are; the memory is not idle while a submission that reads it has not
//! completed, and is idle once it has; an arena that outlives the backend keeps its memory
//! (the device goes with the last of them).

mod common;

use std::sync::Arc;

use common::*;
use xnagraph_graph::compile::compile;
use xnagraph_graph::{
    Backend, FrameCommands, FramePlan, Node, ReadbackId, Rect, SpriteArena, SurfaceFormat,
    TextureDesc, TextureState,
};
use xnagraph_vulkan::{TextureIndexing, VulkanConfig};

const W: u32 = 32;
const H: u32 = 24;

/// A frame that uploads a white texel, clears a target to blue, draws `count` sprites of
/// `sprites` with it and reads the target back (readback `id`).
fn frame(
    texture: &Arc<TextureState>,
    target: &Arc<TextureState>,
    sprites: SpriteArena,
    count: u32,
    id: u64,
) -> FramePlan {
    compile(FrameCommands {
        nodes: vec![
            upload(texture, Rect::new(0, 0, 1, 1), vec![255; 4]),
            Node::Pass(segment(
                target,
                vec![clear_op([0.0, 0.0, 1.0, 1.0]), sprite_draw(texture, 0, count, W, H)],
            )),
            readback(id, target, 0, Rect::new(0, 0, W as i32, H as i32)),
        ],
        sprites,
        ..FrameCommands::default()
    })
}

/// A backend that maps sprite memory: one that draws a batch of several textures at once
/// (lavapipe has no non-uniform indexing: through branches).
fn mapping_session() -> Session {
    Session::with_config(VulkanConfig {
        texture_indexing: TextureIndexing::Branches,
        ..test_config()
    })
}

/// Two sprites in mapped memory: red at (3,2) 9×7, green over its corner at (8,6) 10×12.
fn mapped_sprites(s: &Session, capacity: usize) -> SpriteArena {
    let source = s.backend.sprite_memory().expect("the Vulkan backend maps sprite memory");
    let memory = source.allocate(capacity).expect("mapped sprite memory");
    let mut arena = SpriteArena::mapped(memory);
    arena.push(quad(Rect::new(3, 2, 9, 7), [255, 0, 0, 255])[0]);
    arena.push(quad(Rect::new(8, 6, 10, 12), [0, 255, 0, 255])[0]);
    assert!(arena.is_mapped());
    arena
}

fn assert_drawn(bytes: &[u8]) {
    let blue = [0, 0, 255, 255];
    assert_eq!(pixel(bytes, W, 3, 2), [255, 0, 0, 255], "red's first pixel");
    assert_eq!(pixel(bytes, W, 7, 8), [255, 0, 0, 255], "red, left of green");
    assert_eq!(pixel(bytes, W, 8, 6), [0, 255, 0, 255], "green over red");
    assert_eq!(pixel(bytes, W, 17, 17), [0, 255, 0, 255], "green's last pixel");
    assert_eq!(pixel(bytes, W, 12, 2), blue, "right of red");
    assert_eq!(pixel(bytes, W, 18, 17), blue, "right of green");
    assert_eq!(pixel(bytes, W, 8, 18), blue, "below green");
}

fn objects(s: &mut Session) -> [Arc<TextureState>; 2] {
    [
        s.texture(TextureDesc::texture_2d(1, 1, 1, SurfaceFormat::Color)),
        s.texture(target_desc(W, H, 1, 0)),
    ]
}

/// Sprites in mapped memory are drawn from it; the memory is busy while the submission that
/// reads it cannot complete (the GPU held back) and idle after, and is reused for a frame
/// drawn the same.
#[test]
fn a_frame_draws_its_mapped_sprites_in_place_and_frees_them_for_reuse_once_done() {
    let mut s = mapping_session();
    let [texture, target] = objects(&mut s);
    let arena = mapped_sprites(&s, 4);
    let hold = s.backend.hold_gpu().expect("hold");
    let plan = frame(&texture, &target, arena, 2, 1);
    let id = s.backend.submit(&plan).expect("submit while held");
    let memory = plan.frame.sprites.memory().expect("still mapped");
    assert!(!memory.idle(), "read by a submission that has not completed");
    hold.release().expect("release");
    s.backend.wait(id).expect("wait");
    // Idleness follows the timeline the engine waits on (a driver may signal the slot's fence a
    // moment before the timeline's value shows).
    s.backend.waiter().wait_for(id).expect("timeline wait");
    assert!(memory.idle(), "idle once the submission completed");
    assert_drawn(&s.backend.take_readback(ReadbackId(1)).expect("readback"));

    // The same memory, rewritten, draws the next frame.
    let mut plan = plan;
    let mut arena = std::mem::take(&mut plan.frame.sprites);
    drop(plan);
    arena.clear();
    arena.push(quad(Rect::new(3, 2, 9, 7), [255, 0, 0, 255])[0]);
    arena.push(quad(Rect::new(8, 6, 10, 12), [0, 255, 0, 255])[0]);
    assert!(arena.is_mapped());
    let bytes = submit_and_read(&mut s, frame(&texture, &target, arena, 2, 2), 2);
    assert_drawn(&bytes);
    drop((texture, target));
    s.finish();
}

/// With mapped sprites off, or on a device that splits a batch of several textures into runs
/// (which reads every sprite's slot), the backend offers no memory; the same sprites in a
/// vector draw the same pixels (copied at submission).
#[test]
fn without_mapped_sprites_the_same_sprites_are_copied() {
    let runs = Session::with_config(VulkanConfig {
        texture_indexing: TextureIndexing::Runs,
        ..test_config()
    });
    assert!(runs.backend.sprite_memory().is_none(), "split into runs");
    runs.finish();
    let mut s = Session::with_config(VulkanConfig {
        mapped_sprites: false,
        texture_indexing: TextureIndexing::Branches,
        ..test_config()
    });
    assert!(s.backend.sprite_memory().is_none());
    let [texture, target] = objects(&mut s);
    let sprites: SpriteArena = [
        quad(Rect::new(3, 2, 9, 7), [255, 0, 0, 255]),
        quad(Rect::new(8, 6, 10, 12), [0, 255, 0, 255]),
    ]
    .concat()
    .into();
    assert_drawn(&submit_and_read(&mut s, frame(&texture, &target, sprites, 2, 3), 3));
    drop((texture, target));
    s.finish();
}

/// An arena that outlives its backend stays writable and readable; the device is destroyed
/// when the arena goes, with every object freed and validation silent.
#[test]
fn an_arena_outliving_the_backend_keeps_its_memory() {
    let s = mapping_session();
    let diagnostics = s.diagnostics.clone();
    let mut arena = mapped_sprites(&s, 8);
    drop(s.backend);
    arena.push(quad(Rect::new(1, 1, 2, 2), [1, 2, 3, 4])[0]);
    assert_eq!(arena.len(), 3);
    assert_eq!(arena[2].color, [1, 2, 3, 4]);
    assert_eq!(diagnostics.live_native_objects(), 1, "the arena's buffer alone");
    drop(arena);
    assert_eq!(diagnostics.live_native_objects(), 0);
    let messages = diagnostics.take_messages();
    assert!(messages.is_empty(), "validation reported: {messages:#?}");
}
