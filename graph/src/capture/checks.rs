//! The reader's checks of each record's references and sizes: a texture, buffer, effect, query
//! or blob must be defined by an earlier chunk; a region must lie in its texture and its blob
//! hold its texels; a flush's passes, sprite ranges, texture slots, query spans, geometry
//! draws (their streams, indices, instances and a custom program's values) must lie in what
//! they name. Every fault is an error naming the chunk, never a panic.

use super::container::{CaptureError, RawChunk};
use super::reader::{Capture, MAX_INSTANCES, MAX_TEXTURE_EDGE, MAX_VERTEX_INPUTS};
use super::record::*;
use crate::commands::SpriteInstance;
use crate::compile::instances::MAX_RUN;
use crate::geometry::{repeatable, DrawCall, StockMaterial, StockValues, ATTRIBUTES};
use crate::resource::TextureDesc;

/// A custom geometry program's resources must be what a device could have created: one to
/// four colour outputs, distinct sampler bindings, at most 16 of each stage, and blocks within
/// Vulkan's guaranteed 16 KiB.
pub(super) fn check_resources(r: &CustomResourcesRecord) -> Result<(), String> {
    if !(1..=4).contains(&r.outputs) {
        return Err(format!("{} colour outputs", r.outputs));
    }
    for (what, bindings) in [("vertex", &r.vertex_samplers), ("fragment", &r.fragment_samplers)] {
        let mut sorted = bindings.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != bindings.len() || bindings.len() > 16 {
            return Err(format!("{what} sampler bindings {bindings:?}"));
        }
    }
    if r.vertex_uniform_bytes > 16384 || r.fragment_uniform_bytes > 16384 {
        return Err("a uniform block past 16 KiB".into());
    }
    Ok(())
}

/// The occlusion query spans of one flush: each begun and ended in one pass, one open at a
/// time, at most once per flush (one native query counts one span per submission).
#[derive(Default)]
struct Spans {
    spanned: Vec<QueryKey>,
    open: Option<QueryKey>,
}

impl Spans {
    fn op(&mut self, query: QueryKey, begin: bool) -> Result<(), String> {
        match (begin, self.open) {
            (true, None) if !self.spanned.contains(&query) => {
                self.spanned.push(query);
                self.open = Some(query);
                Ok(())
            }
            (false, Some(q)) if q == query => {
                self.open = None;
                Ok(())
            }
            _ => Err(format!("query {query}'s span is not one begin and one end in a pass")),
        }
    }

    /// A pass ends: a span begun in it must have ended.
    fn end_pass(&mut self) -> Result<(), String> {
        match self.open {
            Some(q) => Err(format!("query {q} begun and not ended in its pass")),
            None => Ok(()),
        }
    }
}

/// A texture's description must be one a device could have created: edges of 1 to
/// [`MAX_TEXTURE_EDGE`], at most a full mip chain, one layer or a cube's six, and a
/// multisample count that is 0 or a power of two up to 64. Everything the reader and a replay
/// compute from it (level sizes, region sizes) then stays in range.
pub(super) fn check_texture_desc(d: &TextureDesc) -> Result<(), String> {
    let depth = d.volume_depth.unwrap_or(1);
    let edges = [d.width, d.height, depth];
    if edges.iter().any(|&e| e == 0 || e > MAX_TEXTURE_EDGE) {
        return Err(format!(
            "size {}x{}x{depth} outside 1 to {MAX_TEXTURE_EDGE}",
            d.width, d.height
        ));
    }
    let chain = d.full_mip_chain();
    if d.mip_levels == 0 || d.mip_levels > chain {
        return Err(format!("{} mip levels, a full chain has {chain}", d.mip_levels));
    }
    if !matches!(d.layers, 1 | 6) || (d.layers == 6 && d.volume_depth.is_some()) {
        return Err(format!("{} layers", d.layers));
    }
    if let Some(rt) = d.render_target {
        if rt.sample_count > 64 || (rt.sample_count > 1 && !rt.sample_count.is_power_of_two()) {
            return Err(format!("{} samples", rt.sample_count));
        }
    }
    Ok(())
}

impl Capture {
    pub(super) fn check_texture(
        &self,
        chunk: &RawChunk,
        key: TextureKey,
    ) -> Result<(), CaptureError> {
        if (key as usize) < self.textures.len() {
            Ok(())
        } else {
            Err(chunk.error(format!("texture {key} used before its creation")))
        }
    }

    /// The size of buffer `key`, which must be created.
    pub(super) fn check_buffer(
        &self,
        chunk: &RawChunk,
        key: BufferKey,
    ) -> Result<u64, CaptureError> {
        self.buffers
            .get(key as usize)
            .map(|b| b.desc.size)
            .ok_or_else(|| chunk.error(format!("buffer {key} used before its creation")))
    }

    /// Bytes `offset..offset + len` must lie in buffer `key` (and be more than none).
    pub(super) fn check_buffer_range(
        &self,
        chunk: &RawChunk,
        key: BufferKey,
        offset: u64,
        len: u64,
    ) -> Result<(), CaptureError> {
        let size = self.check_buffer(chunk, key)?;
        if len == 0 || !self.buffers[key as usize].desc.holds(offset, len) {
            return Err(
                chunk.error(format!("bytes {offset}+{len} outside buffer {key} of {size} bytes"))
            );
        }
        Ok(())
    }

    pub(super) fn check_blob(&self, chunk: &RawChunk, id: BlobId) -> Result<&[u8], CaptureError> {
        self.blobs
            .get(id as usize)
            .map(Vec::as_slice)
            .ok_or_else(|| chunk.error(format!("blob {id} used before it is written")))
    }

    /// A region must lie in its texture's subresources, and its blob hold its texels exactly.
    pub(super) fn check_region(
        &self,
        chunk: &RawChunk,
        r: &Region,
        blob: Option<BlobId>,
    ) -> Result<(), CaptureError> {
        self.check_texture(chunk, r.texture)?;
        let desc = &self.textures[r.texture as usize].desc;
        let (w, h) = if r.level < desc.mip_levels { desc.level_size(r.level) } else { (0, 0) };
        let inside = r.level < desc.mip_levels
            && r.layer < desc.layers
            && r.rect.x >= 0
            && r.rect.y >= 0
            && r.rect.width > 0
            && r.rect.height > 0
            && i64::from(r.rect.x) + i64::from(r.rect.width) <= i64::from(w)
            && i64::from(r.rect.y) + i64::from(r.rect.height) <= i64::from(h)
            && r.slices.front < r.slices.back
            && r.slices.back <= desc.level_depth(r.level);
        if !inside {
            return Err(chunk.error(format!("region {r:?} outside texture {}", r.texture)));
        }
        if let Some(id) = blob {
            let bytes = self.check_blob(chunk, id)?;
            let slice = desc.format.region_size(r.rect.width as u32, r.rect.height as u32);
            let expected = slice as u64 * u64::from(r.slices.count());
            if bytes.len() as u64 != expected {
                return Err(chunk.error(format!(
                    "blob {id} holds {} bytes, the region {expected}",
                    bytes.len()
                )));
            }
        }
        Ok(())
    }

    pub(super) fn check_flush(
        &self,
        chunk: &RawChunk,
        f: &FlushRecord,
    ) -> Result<(), CaptureError> {
        let geometry = match f.geometry {
            Some(id) => self.check_blob(chunk, id)?.len() as u64,
            None => 0,
        };
        let arena = self.check_blob(chunk, f.sprites)?;
        let size = std::mem::size_of::<SpriteInstance>();
        if arena.len() % size != 0 {
            return Err(chunk.error("the sprite arena is not a whole number of sprites"));
        }
        let sprites = (arena.len() / size) as u64;
        let mut spans = Spans::default();
        for node in &f.nodes {
            match node {
                NodeRecord::Pass { colors, ops, .. } => {
                    if colors.is_empty() || colors.len() > 4 {
                        return Err(chunk.error("a pass without one to four attachments"));
                    }
                    spans.end_pass().map_err(|m| chunk.error(m))?;
                    for &(t, layer) in colors {
                        self.check_texture(chunk, t)?;
                        let desc = &self.textures[t as usize].desc;
                        if desc.render_target.is_none() || layer >= desc.layers {
                            return Err(chunk.error(format!("texture {t} is no attachment")));
                        }
                    }
                    for op in ops {
                        let d = match op {
                            OpRecord::Clear(_) => continue,
                            OpRecord::Query { query, begin } => {
                                spans.op(*query, *begin).map_err(|m| chunk.error(m))?;
                                if *query as usize >= self.queries.len() {
                                    return Err(chunk
                                        .error(format!("query {query} used before its creation")));
                                }
                                continue;
                            }
                            OpRecord::Draw(d) => {
                                if matches!(
                                    d.shader,
                                    ShaderRecord::Basic | ShaderRecord::CustomGeometry(_)
                                ) {
                                    return Err(chunk.error("a sprite draw with a geometry shader"));
                                }
                                d
                            }
                            OpRecord::Geometry(d, g) => {
                                let custom = match (d.shader, &g.custom) {
                                    (ShaderRecord::Basic, None) => None,
                                    (ShaderRecord::CustomGeometry(e), Some(c)) if c.effect == e => {
                                        Some(c)
                                    }
                                    _ => {
                                        return Err(chunk.error(
                                            "a geometry draw whose shader and values disagree",
                                        ))
                                    }
                                };
                                if d.sprite_count != 0 {
                                    return Err(chunk.error("a geometry draw with sprites"));
                                }
                                if let Some(c) = custom {
                                    self.check_custom(chunk, c)?;
                                }
                                self.check_geometry(chunk, g, geometry)?;
                                d
                            }
                        };
                        if d.more_textures.len() >= crate::MAX_DRAW_TEXTURES {
                            return Err(chunk.error("a draw of too many textures"));
                        }
                        for &t in std::iter::once(&d.texture).chain(&d.more_textures) {
                            self.check_texture(chunk, t)?;
                        }
                        if u64::from(d.first_sprite) + u64::from(d.sprite_count) > sprites {
                            return Err(chunk.error("a draw past its sprite arena"));
                        }
                        if !d.more_textures.is_empty() {
                            // A backend indexes its texture array by the slot: one past the
                            // draw's textures would read an unwritten descriptor.
                            let first = d.first_sprite as usize * size;
                            let drawn = &arena[first..first + d.sprite_count as usize * size];
                            let slots = d.more_textures.len() as u32 + 1;
                            if drawn.chunks_exact(size).any(|s| sprite_slot(s) >= slots) {
                                return Err(chunk.error(format!(
                                    "a sprite samples a texture slot past its draw's {slots}"
                                )));
                            }
                        }
                        if let ShaderRecord::Custom(e) = d.shader {
                            if e as usize >= self.effects.len() {
                                return Err(
                                    chunk.error(format!("effect {e} used before its creation"))
                                );
                            }
                        }
                    }
                }
                NodeRecord::Upload { region, blob } => {
                    self.check_region(chunk, region, Some(*blob))?
                }
                NodeRecord::Readback(region) => self.check_region(chunk, region, None)?,
                NodeRecord::Present(t) => self.check_texture(chunk, *t)?,
                NodeRecord::BufferUpload { buffer, offset, blob, .. } => {
                    let len = self.check_blob(chunk, *blob)?.len() as u64;
                    self.check_buffer_range(chunk, *buffer, *offset, len)?
                }
                NodeRecord::BufferReadback { buffer, offset, len } => {
                    self.check_buffer_range(chunk, *buffer, *offset, *len)?
                }
            }
        }
        spans.end_pass().map_err(|m| chunk.error(m))?;
        if let Some(open) = f.open_cycle {
            if !matches!(f.nodes.get(open as usize), Some(NodeRecord::Pass { .. })) {
                return Err(chunk.error("the open cycle is not a pass of the flush"));
            }
        }
        Ok(())
    }

    /// A custom geometry draw's values must fit its program: the uniform blocks as long as
    /// declared, and one sampler per binding the program declares, on a created texture.
    pub(super) fn check_custom(
        &self,
        chunk: &RawChunk,
        c: &CustomDrawRecord,
    ) -> Result<(), CaptureError> {
        let bad = |what: &str| Err(chunk.error(format!("a custom geometry draw {what}")));
        let Some(e) = self.geometry_effects.get(c.effect as usize) else {
            return Err(
                chunk.error(format!("geometry effect {} used before its creation", c.effect))
            );
        };
        let r = &e.resources;
        if c.vertex_uniforms.len() as u64 != u64::from(r.vertex_uniform_bytes)
            || c.fragment_uniforms.len() as u64 != u64::from(r.fragment_uniform_bytes)
        {
            return bad("whose uniform bytes are not its blocks' sizes");
        }
        let mut wanted: Vec<(bool, u32)> = r
            .vertex_samplers
            .iter()
            .map(|&b| (true, b))
            .chain(r.fragment_samplers.iter().map(|&b| (false, b)))
            .collect();
        let mut given: Vec<(bool, u32)> =
            c.samplers.iter().map(|s| (s.vertex, s.binding)).collect();
        wanted.sort_unstable();
        given.sort_unstable();
        if wanted != given {
            return bad("whose samplers are not its program's");
        }
        for s in &c.samplers {
            self.check_texture(chunk, s.texture)?;
        }
        Ok(())
    }

    /// A geometry draw's layout must name its streams, and what it draws must lie in its
    /// buffers or in the flush's geometry arena of `arena` bytes.
    pub(super) fn check_geometry(
        &self,
        chunk: &RawChunk,
        g: &GeometryRecord,
        arena: u64,
    ) -> Result<(), CaptureError> {
        let bad = |what: &str| Err(chunk.error(format!("a geometry draw {what}")));
        if let Some((t, _)) = g.texture2 {
            self.check_texture(chunk, t)?;
        }
        if g.streams.is_empty() || g.streams.len() != g.layout.bindings.len() {
            return bad("whose streams and layout disagree");
        }
        // Any instance frequency the engine records is read (a frequency past 1 steps once
        // per that many instances; whether the replaying device has a divisor is its
        // backend's to say); the stream must hold the elements it steps through.
        if g.layout.bindings.iter().any(|b| b.stride == 0) {
            return bad("with a zero stride");
        }
        if g.instances == 0 || g.instances > MAX_INSTANCES {
            return bad(&format!("of {} instances (1 to {MAX_INSTANCES})", g.instances));
        }
        if !g.repeats.is_empty() {
            // Repeats are drawn as instances of one instanced BasicEffect draw: only a draw
            // that can be one ([`GeometryDraw::can_repeat`]) has them, each sharing the run's
            // values ([`StockMaterial::shares_run_values`]: so the draw's variant too), and a
            // run is at most [`MAX_RUN`] draws.
            let custom = g.custom.is_some();
            if !repeatable(custom, g.material.shader, g.instances, &g.bones, &g.layout) {
                return bad("with repeats that cannot be instances of it");
            }
            if g.repeats.len() >= MAX_RUN as usize {
                return bad(&format!("of {} repeats (at most {})", g.repeats.len(), MAX_RUN - 1));
            }
            let apart = |v: &StockValues| {
                let repeat = StockMaterial { shader: g.material.shader, block: v.block };
                !g.material.shares_run_values(&repeat)
            };
            if let Some(i) = g.repeats.iter().position(apart) {
                return bad(&format!(
                    "whose repeat {i} has other lights, eye, fog colour or options"
                ));
            }
        }
        let attributes = g.layout.attributes.iter().take(ATTRIBUTES).flatten();
        for a in attributes.chain(g.layout.custom.iter().map(|(_, a)| a)) {
            if usize::from(a.binding) >= g.streams.len() {
                return bad("whose attribute reads a missing stream");
            }
        }
        if g.custom.is_some() {
            let mut locations: Vec<u32> = g.layout.custom.iter().map(|&(l, _)| l).collect();
            locations.sort_unstable();
            locations.dedup();
            if g.layout.attributes.iter().any(Option::is_some)
                || locations.len() != g.layout.custom.len()
                || locations.last().is_some_and(|&l| l >= MAX_VERTEX_INPUTS)
            {
                return bad("whose custom inputs are not distinct locations");
            }
        } else if g.layout.attributes[0].is_none() || !g.layout.custom.is_empty() {
            return bad("without positions");
        }
        // The vertices each per-vertex stream holds from its start (all the draw may read),
        // and that each per-instance stream holds enough instances.
        let mut vertices = u64::MAX;
        for (s, b) in g.streams.iter().zip(&g.layout.bindings) {
            let bytes = match *s {
                StreamRecord::Buffer { buffer, offset } => {
                    let size = self.check_buffer(chunk, buffer)?;
                    if offset > size {
                        return bad("past the end of its vertex buffer");
                    }
                    size - offset
                }
                StreamRecord::User { start, end } => {
                    if start > end || end > arena {
                        return bad("past its geometry arena");
                    }
                    end - start
                }
            };
            let elements = bytes / u64::from(b.stride);
            if b.instance_frequency == 0 {
                vertices = vertices.min(elements);
            } else if elements < b.instance_elements(g.instances) {
                return bad("of more instances than its instance stream holds");
            }
        }
        match (g.call, &g.indices) {
            (DrawCall::Vertices { first_vertex, vertex_count }, None) => {
                if vertex_count == 0 || u64::from(first_vertex) + u64::from(vertex_count) > vertices
                {
                    return bad("of vertices past its streams");
                }
            }
            (DrawCall::Indexed { base_vertex, first_index, index_count, .. }, Some(ix)) => {
                if !matches!(ix.element_size, 2 | 4) || index_count == 0 || base_vertex < 0 {
                    return bad("with bad indices");
                }
                let begin = u64::from(first_index) * u64::from(ix.element_size);
                let len = u64::from(index_count) * u64::from(ix.element_size);
                match ix.buffer {
                    Some(b) => self.check_buffer_range(chunk, b, begin, len)?,
                    None => {
                        let (start, end) = ix.user;
                        if start > end || end > arena || begin + len > end - start {
                            return bad("of indices past its geometry arena");
                        }
                    }
                }
            }
            _ => return bad("whose call and indices disagree"),
        }
        Ok(())
    }
}

/// The texture slot of a sprite instance stored as bytes (`SpriteInstance::texture`).
fn sprite_slot(sprite: &[u8]) -> u32 {
    let at = std::mem::offset_of!(SpriteInstance, texture);
    u32::from_le_bytes([sprite[at], sprite[at + 1], sprite[at + 2], sprite[at + 3]])
}
