//! What each pass of one replayed frame left in its attachments, as RenderDoc shows a pass's
//! outputs: the report's thumbnails.
//!
//! In: a backend, a capture and a frame position. Out: an [`PassImage`] per attachment of every
//! pass segment of that frame, in order: the colour image (a multisampled target's resolved
//! colour) and, where the backend reads depth back, a single-sample target's depth as grey.
//!
//! Decided here: the frame is replayed from the snapshot up to the frame before, then the frame
//! itself with a readback inserted after each of its pass segments. A readback reads what the
//! pass left, so the compiler stores what it would otherwise have discarded: the images are
//! the passes' results, while the frame's pixels stay those of the plain replay (a readback
//! only observes). This is a second replay, beside the profiled one, so the profile's times
//! are untouched.

use xnagraph_graph::capture::{Capture, Replayer};
use xnagraph_graph::{
    Backend, BackendError, DepthFormat, FrameCommands, Image, Node, Readback, ReadbackId, Rect,
    Slices, SurfaceFormat, TextureState,
};

/// Readback ids of the inspection, far above the replay's own (which count up from 1).
const FIRST_ID: u64 = 1 << 62;

/// One attachment as a pass left it.
#[derive(Clone, Debug, PartialEq)]
pub struct PassImage {
    /// The flush (from 0) of the frame the pass is in.
    pub flush: usize,
    /// The pass segment's index among its flush's nodes, as the profiled plan's nodes name it
    /// ([`super::observe::PlanDetail::segments`]).
    pub segment: usize,
    /// `name:color` or `name:depth`, as the node table names attachments.
    pub attachment: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// RGBA8 pixels, row after row; `None` when the format is not shown (named in `note`).
    pub rgba: Option<Vec<u8>>,
    /// Why there is no image, when there is none.
    pub note: String,
}

/// A readback inserted after a segment, and where its bytes go.
struct Asked {
    id: ReadbackId,
    image: PassImage,
    format: Result<SurfaceFormat, DepthFormat>,
}

/// RGBA8 of `bytes` in `format`, or why not.
fn to_rgba(
    format: Result<SurfaceFormat, DepthFormat>,
    bytes: &[u8],
    texels: usize,
) -> Result<Vec<u8>, String> {
    match format {
        Ok(SurfaceFormat::Color) if bytes.len() == texels * 4 => Ok(bytes.to_vec()),
        Ok(format) => Err(format!("{format:?} is not shown")),
        Err(depth) => {
            if bytes.len() < texels * 4 {
                return Err(format!("{depth:?}: short readback"));
            }
            // Depth as grey: near black, far white.
            Ok(bytes[..texels * 4]
                .chunks_exact(4)
                .flat_map(|d| {
                    let v = f32::from_le_bytes([d[0], d[1], d[2], d[3]]).clamp(0.0, 1.0);
                    let g = (v * 255.0).round() as u8;
                    [g, g, g, 255]
                })
                .collect())
        }
    }
}

/// The readbacks of the attachments of `segment` (flush `flush`, node `index`).
fn ask(
    flush: usize,
    index: usize,
    colors: &[(std::sync::Arc<TextureState>, u32)],
    depth_readback: bool,
    next_id: &mut u64,
    asked: &mut Vec<Asked>,
) -> Vec<Node> {
    let mut nodes = Vec::new();
    for (k, (texture, layer)) in colors.iter().enumerate() {
        let desc = *texture.desc();
        let (w, h) = desc.level_size(0);
        let mut images = vec![(Image::Color, Ok(desc.format), "color")];
        let single_sample_depth =
            desc.render_target.filter(|rt| rt.depth != DepthFormat::None && !rt.is_multisampled());
        if let (0, Some(rt), true) = (k, single_sample_depth, depth_readback) {
            images.push((Image::DepthStencil, Err(rt.depth), "depth"));
        }
        for (image, format, aspect) in images {
            *next_id += 1;
            let id = ReadbackId(*next_id);
            nodes.push(Node::Readback(Readback {
                id,
                texture: texture.clone(),
                level: 0,
                layer: if image == Image::Color { *layer } else { 0 },
                rect: Rect::new(0, 0, w as i32, h as i32),
                slices: Slices::FLAT,
                image,
            }));
            asked.push(Asked {
                id,
                format,
                image: PassImage {
                    flush,
                    segment: index,
                    attachment: format!("{}:{aspect}", texture.name()),
                    width: w,
                    height: h,
                    rgba: None,
                    note: String::new(),
                },
            });
        }
    }
    nodes
}

/// Inserts a readback of every attachment after each pass segment of `commands` (flush
/// `flush`), shifting the open cycle's index past them.
fn with_readbacks(
    flush: usize,
    commands: &mut FrameCommands,
    depth_readback: bool,
    next_id: &mut u64,
    asked: &mut Vec<Asked>,
) {
    let old = std::mem::take(&mut commands.nodes);
    let mut shifted_open = commands.open_cycle;
    for (index, node) in old.into_iter().enumerate() {
        let extra = match &node {
            Node::Pass(segment) => {
                let colors: Vec<_> =
                    segment.colors.iter().map(|c| (c.target.clone(), c.layer)).collect();
                ask(flush, index, &colors, depth_readback, next_id, asked)
            }
            _ => Vec::new(),
        };
        if commands.open_cycle == Some(index) {
            shifted_open = Some(commands.nodes.len());
        }
        commands.nodes.push(node);
        commands.nodes.extend(extra);
    }
    commands.open_cycle = shifted_open;
}

/// What each pass of frame `frame` (a position in the capture) left in its attachments.
pub fn pass_images(
    backend: &mut dyn Backend,
    capture: &Capture,
    frame: usize,
) -> Result<Vec<PassImage>, BackendError> {
    let depth_readback = backend.capabilities().depth_readback;
    let mut replayer = Replayer::new(backend, capture)?;
    for earlier in &capture.frames[..frame.min(capture.frames.len())] {
        replayer.replay_frame(backend, capture, earlier)?;
    }
    let Some(chosen) = capture.frames.get(frame) else { return Ok(Vec::new()) };
    let mut rebuilt = replayer.rebuilder().frame(capture, chosen);
    let mut asked = Vec::new();
    let mut next_id = FIRST_ID;
    for (flush, commands) in rebuilt.flushes.iter_mut().enumerate() {
        with_readbacks(flush, commands, depth_readback, &mut next_id, &mut asked);
    }
    replayer.submit_frame(backend, rebuilt)?;
    backend.wait_idle()?;
    let images = asked
        .into_iter()
        .map(|a| {
            let mut image = a.image;
            let texels = (image.width * image.height) as usize;
            match backend.take_readback(a.id) {
                Some(bytes) => match to_rgba(a.format, &bytes, texels) {
                    Ok(rgba) => image.rgba = Some(rgba),
                    Err(note) => image.note = note,
                },
                None => image.note = "the backend returned no readback".into(),
            }
            image
        })
        .collect();
    replayer.finish(backend)?;
    Ok(images)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_reads_as_grey_near_black_and_far_white() {
        let bytes: Vec<u8> = [0.0f32, 0.5, 1.0].iter().flat_map(|d| d.to_le_bytes()).collect();
        let grey = to_rgba(Err(DepthFormat::Depth24), &bytes, 3).unwrap();
        assert_eq!(grey, [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255]);
    }

    #[test]
    fn colour_passes_through_and_other_formats_are_named() {
        assert_eq!(to_rgba(Ok(SurfaceFormat::Color), &[1, 2, 3, 4], 1).unwrap(), [1, 2, 3, 4]);
        let note = to_rgba(Ok(SurfaceFormat::Single), &[0; 4], 1).unwrap_err();
        assert!(note.contains("Single"), "{note}");
    }
}
