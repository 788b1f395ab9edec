//! Which calls must succeed and which must fail, with which error: XNA's rules for each
//! operation in the model's current state.
//!
//! In: an operation and the state. Out: an [`Expect`]. Each rule is written once here; where
//! several arguments are wrong at once every error they name is accepted.

use super::*;

impl Model {
    // ---- expectations -------------------------------------------------------------------

    /// What the rules allow `op` to return in the current state.
    pub fn expect(&self, op: &Op) -> Expect {
        match op {
            Op::CreateTexture { width, height, .. } | Op::CreateTarget { width, height, .. } => {
                let mut f = Vec::new();
                if *width <= 0 {
                    f.push(want(Kind::ArgumentOutOfRange, "width"));
                }
                if *height <= 0 {
                    f.push(want(Kind::ArgumentOutOfRange, "height"));
                }
                Expect::from_faults(f)
            }
            Op::CreateVertexBuffer { vertices, .. } => Expect::from_faults(if *vertices <= 0 {
                vec![want(Kind::ArgumentOutOfRange, "vertexCount")]
            } else {
                Vec::new()
            }),
            Op::CreateIndexBuffer { indices, .. } => Expect::from_faults(if *indices <= 0 {
                vec![want(Kind::ArgumentOutOfRange, "indexCount")]
            } else {
                Vec::new()
            }),
            Op::CreateEffect { .. } => Expect::Ok,
            Op::CreateQuery { .. } => {
                if self.queries_supported {
                    Expect::Ok
                } else {
                    Expect::Err(vec![Want { kind: Kind::NotSupported, name: None }])
                }
            }
            Op::SetTexels { tex, level, rect, elem, len, start, count, .. } => {
                let Some(id) = self.image_id(*tex) else { return Expect::Skip };
                let image = &self.images[id];
                let mut f = self.region_faults(image, *level, *rect, *elem, *len, *start, *count);
                let writable_when_disposed = self.sabotage == Sabotage::DisposedWritable;
                if image.disposed && !writable_when_disposed {
                    f.push(disposed(image.name()));
                }
                if self.is_bound(id) {
                    f.push(invalid());
                }
                Expect::from_faults(f)
            }
            Op::GetTexels { tex, level, rect, len, start, count } => {
                let Some(id) = self.image_id(*tex) else { return Expect::Skip };
                let image = &self.images[id];
                let mut f =
                    self.region_faults(image, *level, *rect, Elem::Color, *len, *start, *count);
                if image.disposed {
                    f.push(disposed(image.name()));
                }
                if self.is_bound(id) {
                    f.push(invalid());
                }
                Expect::from_faults(f)
            }
            Op::GetBackBuffer { rect, count } => {
                let back = &self.images[0];
                Expect::from_faults(self.region_faults(
                    back,
                    0,
                    *rect,
                    Elem::Color,
                    *count,
                    0,
                    *count,
                ))
            }
            Op::SetVertices { slot, offset, vertices, start, count, stride, .. } => {
                let Some(id) = self.vb_slots[*slot as usize] else { return Expect::Skip };
                let b = &self.bufs[id];
                let mut f = buffer_layout_faults(
                    b,
                    VERTEX_BYTES,
                    *offset,
                    vertices.len(),
                    *start,
                    *count,
                    *stride,
                );
                if b.disposed {
                    f.push(disposed(b.name()));
                }
                Expect::from_faults(f)
            }
            Op::GetVertices { slot, offset, count, stride } => {
                let Some(id) = self.vb_slots[*slot as usize] else { return Expect::Skip };
                let b = &self.bufs[id];
                let mut f =
                    buffer_layout_faults(b, VERTEX_BYTES, *offset, *count, 0, *count, *stride);
                if b.disposed {
                    f.push(disposed(b.name()));
                }
                if b.write_only {
                    f.push(Want { kind: Kind::NotSupported, name: None });
                }
                Expect::from_faults(f)
            }
            Op::SetIndices { slot, offset, indices, start, count, wide } => {
                let Some(id) = self.ib_slots[*slot as usize] else { return Expect::Skip };
                let b = &self.bufs[id];
                let element = if *wide { 4 } else { 2 };
                let mut f =
                    buffer_layout_faults(b, element, *offset, indices.len(), *start, *count, 0);
                if *wide {
                    f.push(want(Kind::Argument, "data"));
                }
                if b.disposed {
                    f.push(disposed(b.name()));
                }
                Expect::from_faults(f)
            }
            Op::GetIndices { slot, offset, count } => {
                let Some(id) = self.ib_slots[*slot as usize] else { return Expect::Skip };
                let b = &self.bufs[id];
                let mut f = buffer_layout_faults(b, 2, *offset, *count, 0, *count, 0);
                if b.disposed {
                    f.push(disposed(b.name()));
                }
                if b.write_only {
                    f.push(Want { kind: Kind::NotSupported, name: None });
                }
                Expect::from_faults(f)
            }
            Op::BindTargets { slots } => {
                let ids: Option<Vec<usize>> =
                    slots.iter().map(|s| self.rt_slots[*s as usize]).collect();
                let Some(ids) = ids else { return Expect::Skip };
                let mut f = Vec::new();
                for id in &ids {
                    if self.images[*id].disposed {
                        f.push(disposed("RenderTarget2D"));
                    }
                }
                for (i, id) in ids.iter().enumerate() {
                    if ids[..i].contains(id) {
                        f.push(want(Kind::Argument, "renderTargets"));
                    }
                }
                if let Some(first) = ids.first() {
                    let size = |id: &usize| {
                        let s = &self.images[*id].levels[0];
                        (s.w, s.h)
                    };
                    if ids.iter().any(|id| size(id) != size(first)) {
                        f.push(want(Kind::Argument, "renderTargets"));
                    }
                }
                Expect::from_faults(f)
            }
            Op::BindVertexBuffer { slot: None, .. } => Expect::Ok,
            Op::BindVertexBuffer { slot: Some(s), offset } => {
                let Some(id) = self.vb_slots[*s as usize] else { return Expect::Skip };
                let b = &self.bufs[id];
                let mut f = Vec::new();
                if b.disposed {
                    f.push(disposed(b.name()));
                }
                if *offset < 0 || *offset >= b.count {
                    f.push(want(Kind::ArgumentOutOfRange, "vertexOffset"));
                }
                Expect::from_faults(f)
            }
            Op::BindIndexBuffer { slot: None } => Expect::Ok,
            Op::BindIndexBuffer { slot: Some(s) } => {
                let Some(id) = self.ib_slots[*s as usize] else { return Expect::Skip };
                let b = &self.bufs[id];
                Expect::from_faults(if b.disposed { vec![disposed(b.name())] } else { Vec::new() })
            }
            Op::Clear { .. } | Op::ClearWith { .. } | Op::SetDepthTest { .. } => Expect::Ok,
            Op::SpriteBegin { .. } => {
                Expect::from_faults(if self.batch.is_some() { vec![invalid()] } else { Vec::new() })
            }
            Op::SpriteDraw { tex, .. } => {
                let Some(id) = self.image_id(*tex) else { return Expect::Skip };
                let Some(batch) = &self.batch else { return Expect::Err(vec![invalid()]) };
                let image = &self.images[id];
                let mut f = Vec::new();
                if image.disposed {
                    f.push(disposed(image.name()));
                }
                if batch.immediate && self.is_bound(id) {
                    f.push(invalid());
                }
                Expect::from_faults(f)
            }
            Op::SpriteEnd => {
                let Some(batch) = &self.batch else { return Expect::Err(vec![invalid()]) };
                if batch.queue.iter().any(|s| self.is_bound(s.image)) {
                    return Expect::Err(vec![invalid()]);
                }
                // A texture disposed after its sprite was queued: XNA's behaviour is not
                // documented; drawing it (the engine holds it) and refusing are both accepted.
                let gone: Vec<Want> = batch
                    .queue
                    .iter()
                    .filter(|s| self.images[s.image].disposed)
                    .map(|s| disposed(self.images[s.image].name()))
                    .collect();
                if gone.is_empty() {
                    Expect::Ok
                } else {
                    Expect::OkOr(gone)
                }
            }
            Op::EffectTexture { effect, second, tex } => {
                let Some(e) = &self.effects[*effect as usize] else { return Expect::Skip };
                if *second && e.kind != EffectKind::DualTexture {
                    return Expect::Skip;
                }
                if tex.is_some_and(|t| self.image_id(t).is_none()) {
                    return Expect::Skip;
                }
                Expect::Ok
            }
            Op::EffectDiffuse { effect, .. }
            | Op::EffectWorld { effect, .. }
            | Op::EffectFlags { effect, .. } => {
                if self.effects[*effect as usize].is_none() {
                    Expect::Skip
                } else {
                    Expect::Ok
                }
            }
            Op::EffectReferenceAlpha { effect, .. } => match &self.effects[*effect as usize] {
                Some(e) if e.kind == EffectKind::AlphaTest => Expect::Ok,
                _ => Expect::Skip,
            },
            Op::Apply { effect } => {
                let Some(e) = &self.effects[*effect as usize] else { return Expect::Skip };
                let mut f = Vec::new();
                for t in sampled(e) {
                    match t {
                        None => f.push(invalid()),
                        Some(id) if self.images[id].disposed => {
                            f.push(disposed(self.images[id].name()))
                        }
                        Some(_) => {}
                    }
                }
                Expect::from_faults(f)
            }
            Op::DrawUser { vertices, offset, primitives, positions_only } => {
                let mut f = Vec::new();
                if vertices.is_empty() {
                    f.push(want(Kind::ArgumentNull, "vertexData"));
                } else {
                    if *primitives <= 0 {
                        f.push(want(Kind::ArgumentOutOfRange, "primitiveCount"));
                    }
                    if *offset < 0 || *offset as usize >= vertices.len() {
                        f.push(want(Kind::ArgumentOutOfRange, "vertexOffset"));
                    } else if *primitives > 0
                        && *offset as usize + *primitives as usize + 2 > vertices.len()
                    {
                        f.push(want(Kind::ArgumentOutOfRange, "primitiveCount"));
                    }
                }
                self.draw_state_faults(&mut f, *positions_only);
                self.draw_expect(f)
            }
            Op::DrawPrimitives { start, primitives } => {
                let mut f = Vec::new();
                if *primitives <= 0 {
                    f.push(want(Kind::ArgumentOutOfRange, "primitiveCount"));
                }
                if *start < 0 {
                    f.push(want(Kind::ArgumentOutOfRange, "startVertex"));
                }
                match self.stream {
                    None => f.push(invalid()),
                    Some((id, offset)) => {
                        let b = &self.bufs[id];
                        if b.disposed {
                            f.push(disposed(b.name()));
                        }
                        let end =
                            i64::from(offset) + i64::from(*start) + i64::from(*primitives) + 2;
                        if *primitives > 0 && *start >= 0 && end > i64::from(b.count) {
                            f.push(want(Kind::ArgumentOutOfRange, "primitiveCount"));
                        }
                    }
                }
                self.draw_state_faults(&mut f, false);
                self.draw_expect(f)
            }
            Op::DrawIndexed { base, min, num, start, primitives } => {
                let mut f = Vec::new();
                if *primitives <= 0 {
                    f.push(want(Kind::ArgumentOutOfRange, "primitiveCount"));
                }
                if *num <= 0 {
                    f.push(want(Kind::ArgumentOutOfRange, "numVertices"));
                }
                if *min < 0 {
                    f.push(want(Kind::ArgumentOutOfRange, "minVertexIndex"));
                }
                if *start < 0 {
                    f.push(want(Kind::ArgumentOutOfRange, "startIndex"));
                }
                let (Some((vb, offset)), Some(ib)) = (self.stream, self.indices) else {
                    f.push(invalid());
                    self.draw_state_faults(&mut f, false);
                    return self.draw_expect(f);
                };
                let (v, i) = (&self.bufs[vb], &self.bufs[ib]);
                for b in [v, i] {
                    if b.disposed {
                        f.push(disposed(b.name()));
                    }
                }
                let indices = 3 * i64::from(*primitives);
                if *primitives > 0
                    && *start >= 0
                    && i64::from(*start) + indices > i64::from(i.count)
                {
                    f.push(want(Kind::ArgumentOutOfRange, "primitiveCount"));
                }
                // numVertices is a hint; the first vertex must lie in the buffer.
                let first = i64::from(offset) + i64::from(*base) + i64::from(*min);
                if *num > 0 && *min >= 0 && (first < 0 || first >= i64::from(v.count)) {
                    f.push(want(Kind::ArgumentOutOfRange, "baseVertex"));
                }
                self.draw_state_faults(&mut f, false);
                if f.is_empty() && self.indexed_vertices(*base, *start, *primitives).is_none() {
                    // Indices outside the promised range, or unknown: undefined in XNA.
                    return Expect::Skip;
                }
                self.draw_expect(f)
            }
            Op::QueryBegin { slot }
            | Op::QueryEnd { slot }
            | Op::QueryComplete { slot }
            | Op::QueryPixels { slot } => {
                let Some(q) = &self.queries[*slot as usize] else { return Expect::Skip };
                if q.disposed {
                    return Expect::Err(vec![disposed("OcclusionQuery")]);
                }
                match (op, &q.phase) {
                    (Op::QueryBegin { .. }, Phase::Begun { .. }) => Expect::Err(vec![invalid()]),
                    // Another query's span open: Vulkan and OpenGL cannot nest them, and
                    // xnagraph refuses this Begin (OcclusionQuery::begin).
                    (Op::QueryBegin { .. }, _) if self.query_begun() => {
                        Expect::Err(vec![invalid()])
                    }
                    (Op::QueryBegin { .. }, _) => Expect::Ok,
                    (Op::QueryEnd { .. }, Phase::Begun { pos, uncertain, .. }) => {
                        if *uncertain {
                            Expect::OkOr(vec![invalid()])
                        } else if *pos == self.position() {
                            Expect::Ok
                        } else {
                            Expect::Err(vec![invalid()])
                        }
                    }
                    // End without a begun span; IsComplete is false before any span ended,
                    // PixelCount refused.
                    (Op::QueryEnd { .. }, _) => Expect::Err(vec![invalid()]),
                    (Op::QueryComplete { .. }, Phase::Idle | Phase::Begun { .. }) => Expect::Ok,
                    (_, Phase::Idle | Phase::Begun { .. }) => Expect::Err(vec![invalid()]),
                    (Op::QueryComplete { .. }, Phase::Ended { .. }) => Expect::Ok,
                    (_, Phase::Ended { complete: true, .. }) => Expect::Ok,
                    (_, Phase::Ended { .. }) => Expect::OkOr(vec![invalid()]),
                }
            }
            Op::Dispose { res } => match self.res_id(*res) {
                None => Expect::Skip,
                Some(id) => match res {
                    Res::Effect(_) => Expect::Skip,
                    Res::Target(_) if self.is_bound(id) => Expect::Err(vec![invalid()]),
                    _ => Expect::Ok,
                },
            },
            Op::Drop { res } => {
                if self.res_id(*res).is_none() {
                    Expect::Skip
                } else {
                    Expect::Ok
                }
            }
            Op::Present => Expect::from_faults(if !self.bound.is_empty() || self.bound_destroyed {
                vec![invalid()]
            } else {
                Vec::new()
            }),
            Op::Flush => Expect::Ok,
        }
    }

    /// The id behind a resource slot (for effects and queries, the slot number when full).
    fn res_id(&self, res: Res) -> Option<usize> {
        match res {
            Res::Texture(i) => self.tex_slots[i as usize],
            Res::Target(i) => self.rt_slots[i as usize],
            Res::VertexBuffer(i) => self.vb_slots[i as usize],
            Res::IndexBuffer(i) => self.ib_slots[i as usize],
            Res::Effect(i) => self.effects[i as usize].as_ref().map(|_| i as usize),
            Res::Query(i) => self.queries[i as usize].as_ref().map(|_| i as usize),
        }
    }

    /// XNA's checks of a texture data call: the level, the rectangle, the element type, the
    /// slice and the element count.
    #[allow(clippy::too_many_arguments)]
    fn region_faults(
        &self,
        image: &Image,
        level: i32,
        rect: Option<R>,
        elem: Elem,
        len: usize,
        start: usize,
        count: usize,
    ) -> Vec<Want> {
        let mut f = Vec::new();
        let Some(surface) = usize::try_from(level).ok().and_then(|l| image.levels.get(l)) else {
            f.push(want(Kind::ArgumentOutOfRange, "level"));
            return f;
        };
        let r = rect.unwrap_or(R { x: 0, y: 0, w: surface.w, h: surface.h });
        let inside = r.x >= 0
            && r.y >= 0
            && r.w > 0
            && r.h > 0
            && r.x + r.w <= surface.w
            && r.y + r.h <= surface.h;
        if !inside {
            f.push(want(Kind::Argument, "rect"));
        }
        let size = match elem {
            Elem::Color => 4,
            Elem::U16 => 2,
            Elem::Bytes3 => {
                f.push(want(Kind::Argument, "T"));
                return f;
            }
        };
        if start + count > len {
            f.push(want(Kind::Argument, "data"));
        }
        if inside && count * size != (r.w * r.h * 4) as usize {
            f.push(want(Kind::Argument, "elementCount"));
        }
        f
    }

    /// The state checks every geometry draw makes: an applied effect, the vertex elements it
    /// reads, no bound target among what it samples (and textures disposed since `Apply`).
    fn draw_state_faults(&self, f: &mut Vec<Want>, positions_only: bool) {
        let Some(e) = &self.applied else {
            f.push(invalid());
            return;
        };
        let needs_uv = match e.kind {
            EffectKind::Basic => e.texture_enabled,
            _ => true,
        };
        if positions_only && needs_uv {
            f.push(invalid());
        }
        for id in sampled(e).into_iter().flatten() {
            if self.is_bound(id) {
                f.push(invalid());
            }
        }
    }

    /// Draw faults, or success; a texture of the applied effect disposed since `Apply` lets
    /// the draw be refused or drawn (XNA's behaviour there is not documented).
    fn draw_expect(&self, f: Vec<Want>) -> Expect {
        if !f.is_empty() {
            return Expect::Err(f);
        }
        let gone: Vec<Want> = self
            .applied
            .iter()
            .flat_map(sampled)
            .flatten()
            .filter(|id| self.images[*id].disposed)
            .map(|id| disposed(self.images[id].name()))
            .collect();
        if gone.is_empty() {
            Expect::Ok
        } else {
            Expect::OkOr(gone)
        }
    }

    /// The triangles an indexed draw reads, when every index is known and names a vertex
    /// inside the bound buffer's known content.
    pub(super) fn indexed_vertices(
        &self,
        base: i32,
        start: i32,
        primitives: i32,
    ) -> Option<Vec<[V; 3]>> {
        let (vb, offset) = self.stream?;
        let ib = self.indices?;
        let (v, i) = (&self.bufs[vb], &self.bufs[ib]);
        let mut out = Vec::new();
        for p in 0..primitives as usize {
            let mut tri = Vec::new();
            for k in 0..3 {
                let at = (start as usize + 3 * p + k) * 2;
                let index = u16::from_le_bytes([(*i.bytes.get(at)?)?, (*i.bytes.get(at + 1)?)?]);
                let vertex = i64::from(offset) + i64::from(base) + i64::from(index);
                if vertex < 0 || vertex >= i64::from(v.count) {
                    return None;
                }
                let b = vertex as usize * VERTEX_BYTES;
                tri.push(decode(&v.bytes[b..b + VERTEX_BYTES]));
            }
            // An unknown vertex is defined content the model cannot place: the whole target.
            let tri: Option<Vec<V>> = tri.into_iter().collect();
            match tri {
                Some(t) => out.push([t[0], t[1], t[2]]),
                None => out.push([UNKNOWN_VERTEX; 3]),
            }
        }
        Some(out)
    }
}

/// The textures an effect samples when applied (`None`: one it needs and has not got).
pub(super) fn sampled(e: &EffectM) -> Vec<Option<usize>> {
    match e.kind {
        EffectKind::Basic if e.texture_enabled => vec![e.tex],
        EffectKind::Basic => Vec::new(),
        EffectKind::AlphaTest => vec![e.tex],
        EffectKind::DualTexture => vec![e.tex, e.tex2],
    }
}

/// XNA's checks of a buffer data call: `count` elements of `element` bytes from `start` of a
/// slice of `len`, `stride` apart (0: packed) from `offset`.
fn buffer_layout_faults(
    b: &Buf,
    element: usize,
    offset: i32,
    len: usize,
    start: usize,
    count: usize,
    stride: i32,
) -> Vec<Want> {
    let mut f = Vec::new();
    let size = b.count as i64 * b.element() as i64;
    if offset < 0 {
        f.push(want(Kind::ArgumentOutOfRange, "offsetInBytes"));
    }
    if stride < 0 {
        f.push(want(Kind::ArgumentOutOfRange, "vertexStride"));
    }
    let stride = if stride <= 0 { element as i64 } else { i64::from(stride) };
    // A stride past the buffer's end is XNA's for one element; more run past the end below.
    if stride < element as i64 {
        f.push(want(Kind::ArgumentOutOfRange, "vertexStride"));
    }
    if count == 0 || start + count > len {
        f.push(want(Kind::ArgumentOutOfRange, "data"));
    }
    if f.is_empty() {
        let span = stride * (count as i64 - 1) + element as i64;
        if i64::from(offset) + span > size {
            f.push(invalid());
        }
    }
    f
}
