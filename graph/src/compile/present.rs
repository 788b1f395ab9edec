//! Stage 0, present: how the frame reaches the screen.
//!
//! In: the recorded frame with the [`PresentTarget`] the backend reported before the compile.
//! Out: the frame's [`PresentMode`], written into `frame.presentation` before any other stage
//! runs, so the access table knows what a present does to the back buffer.
//!
//! It decides whether the frame draws straight into the swapchain image or into the offscreen
//! back buffer that the present then copies: straight in when nothing needs the back buffer's
//! content to survive the present ([`draws_straight_in`]), and once a frame has started in the
//! swapchain image (an earlier flush acquired it) it stays there; a frame that already put
//! content into the offscreen back buffer (an earlier flush drew it) is copied. A window without
//! area presents nothing.

use std::sync::Arc;

use crate::commands::{FrameCommands, Node};
use crate::plan::{Access, Image};
use crate::present::{PresentMode, PresentTarget, SwapchainDesc};
use crate::resource::{TextureDesc, TextureState};

/// The rule: a frame may draw straight into the swapchain image only when nothing needs the
/// back buffer's content after `Present` (its usage is `DiscardContents`: XNA leaves such
/// content undefined) and the swapchain image can stand for the back buffer (same size, and a
/// format that stores the back buffer's values unchanged). A multisampled back buffer qualifies
/// when it can resolve into the swapchain image (the same native format).
pub fn draws_straight_in(back_buffer: &TextureDesc, swapchain: &SwapchainDesc) -> bool {
    let discards = back_buffer.render_target.is_some_and(|rt| !rt.usage.preserves_contents());
    let multisampled = back_buffer.render_target.is_some_and(|rt| rt.is_multisampled());
    discards
        && (!multisampled || swapchain.resolve_target)
        && swapchain.width == back_buffer.width
        && swapchain.height == back_buffer.height
        && swapchain.format == Some(back_buffer.format)
}

/// The back buffer the frame names, if any (a frame has one: `Reset` flushes before replacing
/// it).
fn named_back_buffer(frame: &FrameCommands) -> Option<&Arc<TextureState>> {
    frame.nodes.iter().find_map(|node| match node {
        Node::Present(t) => Some(t),
        Node::Pass(s) => s.colors.iter().map(|c| &c.target).find(|t| t.desc().is_back_buffer()),
        Node::Readback(r) if r.texture.desc().is_back_buffer() => Some(&r.texture),
        _ => None,
    })
}

/// Whether an earlier flush of this frame left content in the offscreen back buffer: its last
/// use was neither a present nor nothing at all.
fn frame_started_offscreen(back_buffer: &TextureState) -> bool {
    let tracked = back_buffer.tracked.lock().unwrap_or_else(|p| p.into_inner());
    let access = tracked.get(Image::Color, 0, 0).map_or(Access::Nothing, |s| s.access);
    !matches!(access, Access::Nothing | Access::Present | Access::PresentSwapchain)
}

/// Decides the frame's present mode (see the module doc).
pub(crate) fn decide_present_mode(frame: &FrameCommands) -> PresentMode {
    let PresentTarget::Window { swapchain, acquired } = frame.present_target else {
        return PresentMode::Offscreen;
    };
    let Some(swapchain) = swapchain else {
        return PresentMode::Skip;
    };
    if acquired {
        return PresentMode::Direct;
    }
    let Some(bb) = named_back_buffer(frame) else {
        return PresentMode::Copy;
    };
    // Straight in needs the frame to draw the back buffer: a present of a frame that never
    // drew it shows the offscreen back buffer as it is.
    let draws = frame
        .nodes
        .iter()
        .any(|n| matches!(n, Node::Pass(s) if s.colors.iter().any(|c| Arc::ptr_eq(&c.target, bb))));
    if draws && !frame_started_offscreen(bb) && draws_straight_in(bb.desc(), &swapchain) {
        PresentMode::Direct
    } else {
        PresentMode::Copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::testkit::*;
    use crate::compile::{compile, compile_for_submission};
    use crate::format::{DepthFormat, SurfaceFormat};
    use crate::plan::Access;

    fn window(width: u32, height: u32) -> PresentTarget {
        let swapchain = SwapchainDesc {
            width,
            height,
            format: Some(SurfaceFormat::Color),
            resolve_target: true,
        };
        PresentTarget::Window { swapchain: Some(swapchain), acquired: false }
    }

    fn windowed(steps: Vec<Step>, target: PresentTarget) -> FrameCommands {
        let mut f = frame(steps);
        f.present_target = target;
        f
    }

    #[test]
    fn only_a_discarding_back_buffer_of_the_swapchain_s_size_and_format_draws_straight_in() {
        let sc = SwapchainDesc {
            width: 8,
            height: 4,
            format: Some(SurfaceFormat::Color),
            resolve_target: false,
        };
        assert!(draws_straight_in(back_buffer(8, 4, DISCARD).desc(), &sc));
        assert!(!draws_straight_in(back_buffer(8, 4, PRESERVE).desc(), &sc));
        assert!(!draws_straight_in(back_buffer(8, 4, PLATFORM).desc(), &sc));
        assert!(!draws_straight_in(back_buffer(8, 5, DISCARD).desc(), &sc));
        assert!(!draws_straight_in(back_buffer(7, 4, DISCARD).desc(), &sc));
        let srgb = SwapchainDesc { format: None, ..sc };
        assert!(!draws_straight_in(back_buffer(8, 4, DISCARD).desc(), &srgb));
        // A multisampled back buffer resolves into the image only in the same native format.
        let msaa =
            render_target(8, 4, 1, 1, SurfaceFormat::Color, 4, DepthFormat::None, DISCARD, true);
        assert!(!draws_straight_in(msaa.desc(), &sc));
        assert!(draws_straight_in(msaa.desc(), &SwapchainDesc { resolve_target: true, ..sc }));
    }

    #[test]
    fn each_usage_and_window_gets_its_present_mode() {
        let red = || vec![clear_color(RED)];
        let bb = back_buffer(8, 4, DISCARD);
        let plan = compile(windowed(vec![bind(&bb, red()), present(&bb)], window(8, 4)));
        assert_eq!(plan.frame.presentation, PresentMode::Direct);
        let plan = compile(windowed(vec![bind(&bb, red()), present(&bb)], window(16, 8)));
        assert_eq!(plan.frame.presentation, PresentMode::Copy, "a scaled present is a copy");
        let pbb = back_buffer(8, 4, PRESERVE);
        let plan = compile(windowed(vec![bind(&pbb, red()), present(&pbb)], window(8, 4)));
        assert_eq!(plan.frame.presentation, PresentMode::Copy);
        let none = PresentTarget::Window { swapchain: None, acquired: false };
        let plan = compile(windowed(vec![bind(&bb, red()), present(&bb)], none));
        assert_eq!(plan.frame.presentation, PresentMode::Skip);
        let plan = compile(frame(vec![bind(&bb, red()), present(&bb)]));
        assert_eq!(plan.frame.presentation, PresentMode::Offscreen, "headless");
    }

    #[test]
    fn a_straight_in_present_hands_the_image_to_the_presentation_engine() {
        let (bb, t) = (back_buffer(8, 4, DISCARD), texture(1, 1, 1));
        let plan = compile(windowed(vec![bind(&bb, vec![draw(&t)]), present(&bb)], window(8, 4)));
        let last = barriers(&plan, plan.nodes.len() - 1);
        assert_eq!(last.len(), 1);
        assert_eq!(
            (last[0].4, last[0].5),
            (Access::ColorAttachmentWrite, Access::PresentSwapchain)
        );
        let tracked = bb.tracked.lock().unwrap().get(Image::Color, 0, 0).unwrap();
        assert!(!tracked.defined, "the presented content is not the back buffer's any more");
        // A copy keeps it readable.
        let bb = back_buffer(8, 4, PRESERVE);
        let plan = compile(windowed(vec![bind(&bb, vec![draw(&t)]), present(&bb)], window(8, 4)));
        let last = barriers(&plan, plan.nodes.len() - 1);
        assert_eq!(last[0].5, Access::Present);
        assert!(bb.tracked.lock().unwrap().get(Image::Color, 0, 0).unwrap().defined);
    }

    #[test]
    fn a_frame_keeps_the_mode_its_first_flush_chose() {
        let bb = back_buffer(8, 4, DISCARD);
        // The first flush drew offscreen (the window did not fit then); the window fits now,
        // but the frame's content is offscreen: it is copied.
        let (plan, commit) =
            compile_for_submission(windowed(vec![bind(&bb, vec![clear_color(RED)])], window(4, 4)));
        assert_eq!(plan.frame.presentation, PresentMode::Copy);
        commit.commit();
        let plan = compile(windowed(
            vec![resume(&bb, vec![clear_color(BLUE)]), present(&bb)],
            window(8, 4),
        ));
        assert_eq!(plan.frame.presentation, PresentMode::Copy);
        // A frame whose first flush acquired the swapchain image continues in it.
        let acquired = PresentTarget::Window {
            swapchain: Some(SwapchainDesc {
                width: 8,
                height: 4,
                format: Some(SurfaceFormat::Color),
                resolve_target: true,
            }),
            acquired: true,
        };
        let plan = compile(windowed(vec![present(&bb)], acquired));
        assert_eq!(plan.frame.presentation, PresentMode::Direct);
        // A present of a frame that never drew the back buffer shows the offscreen one.
        let plan = compile(windowed(vec![present(&bb)], window(8, 4)));
        assert_eq!(plan.frame.presentation, PresentMode::Copy);
    }

    #[test]
    fn plan_text_and_dot_show_the_present_decision() {
        let (bb, t) = (back_buffer(8, 4, DISCARD), texture(1, 1, 1));
        let plan = compile(windowed(vec![bind(&bb, vec![draw(&t)]), present(&bb)], window(8, 4)));
        let text = plan.to_string();
        assert!(text.starts_with("plan: "), "{text}");
        assert!(
            text.contains("\npresentation: direct (drawn straight into the swapchain image)\n"),
            "{text}"
        );
        assert!(text.contains("present node 1 t1 direct"), "{text}");
        assert!(text.contains("ColorAttachmentWrite -> PresentSwapchain"), "{text}");
        let dot = crate::compile::output::to_dot(&plan);
        assert!(dot.contains("label=\"presentation: direct"), "{dot}");
        let pbb = back_buffer(8, 4, PRESERVE);
        let plan = compile(windowed(vec![bind(&pbb, vec![draw(&t)]), present(&pbb)], window(8, 4)));
        let text = plan.to_string();
        assert!(text.contains("presentation: copy (offscreen back buffer blitted"), "{text}");
        assert!(text.contains("ColorAttachmentWrite -> Present\n"), "{text}");
        let plan = compile(frame(vec![bind(&pbb, vec![clear_color(RED)]), present(&pbb)]));
        assert!(!plan.to_string().contains("presentation"), "headless plans print as before");
    }
}
