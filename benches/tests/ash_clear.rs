//! The clear-and-present baseline's hand-written loops run on the shared ash device: both clear
//! methods, more frames than slots in flight, one duration per frame.

use xnagraph_benches::ash_clear::{AshClearLoop, ClearMethod};

#[test]
fn both_clear_loops_run_their_frames() {
    for method in [ClearMethod::Transfer, ClearMethod::RenderPass] {
        let mut ash = AshClearLoop::new(64, 32, method, 2).expect("the loop sets up");
        assert!(!ash.adapter.is_empty());
        let frames = ash.run(5).expect("the frames run");
        assert_eq!(frames.len(), 5, "{method:?}");
        assert!(frames.iter().all(|d| !d.is_zero()), "{method:?}: {frames:?}");
    }
}
