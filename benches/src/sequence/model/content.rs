//! What each operation leaves: the model's state after an operation the engine accepted (or
//! refused), and the readbacks it predicts.
//!
//! In: an operation and the engine's value for it (the rules of [`super`] have admitted it).
//! Out: the new state (resources, bindings, pixels, bytes, passes, query spans) and, for a
//! readback, the prediction it was checked against. The content rules are XNA's with
//! xnagraph's documented choices: a `DiscardContents` bind clears to opaque black and depth 1,
//! a presented back buffer discards at the next clear or draw, an Immediate batch projects
//! with the viewport of its `Begin`, a Deferred one draws at `End` what its textures hold then.

use super::*;

impl Model {
    /// What a refused operation still changes.
    pub(super) fn refused(&mut self, op: &Op) -> Option<Vec<Px>> {
        match op {
            Op::QueryEnd { slot } => {
                if let Some(q) = &mut self.queries[*slot as usize] {
                    if matches!(q.phase, Phase::Begun { .. }) {
                        q.phase = Phase::Idle;
                    }
                }
            }
            // A refused End still ends the batch; a refused draw queues nothing (an Immediate
            // batch's queue is empty between draws either way).
            Op::SpriteEnd => self.batch = None,
            _ => {}
        }
        None
    }

    /// Applies an accepted operation; for a readback, checks `value` against the prediction.
    pub(super) fn apply(&mut self, op: &Op, value: &Value) -> Result<Option<Vec<Px>>, String> {
        match op {
            Op::CreateTexture { slot, width, height, mipmap } => {
                let levels = if *mipmap { mip_count(*width, *height) } else { 1 };
                let surfaces = (0..levels)
                    .map(|l| {
                        let (w, h) = ((width >> l).max(1), (height >> l).max(1));
                        Surface::new(w, h, Px::Exact([0; 4]), false)
                    })
                    .collect();
                let image = Image {
                    kind: ImageKind::Texture,
                    levels: surfaces,
                    disposed: false,
                    mips_dirty: false,
                };
                // The texture the slot held is dropped, not disposed: an effect given it keeps
                // it (see `dispose`).
                self.tex_slots[*slot as usize] = Some(self.images.len());
                self.images.push(image);
                // The zero fill is an upload outside any pass.
                self.close_pass();
                self.unsettle_spans();
            }
            Op::CreateTarget { slot, width, height, mipmap, depth, preserve } => {
                let levels = if *mipmap { mip_count(*width, *height) } else { 1 };
                let levels = (0..levels)
                    .map(|l| {
                        let (w, h) = ((width >> l).max(1), (height >> l).max(1));
                        Surface::new(w, h, Px::Undefined, l == 0 && *depth)
                    })
                    .collect();
                let image = Image {
                    kind: ImageKind::Target { preserve: *preserve },
                    levels,
                    disposed: false,
                    mips_dirty: false,
                };
                let id = self.images.len();
                self.images.push(image);
                if let Some(old) = self.rt_slots[*slot as usize].replace(id) {
                    self.drop_target(old);
                }
                self.unsettle_spans();
            }
            Op::CreateVertexBuffer { slot, vertices, dynamic, write_only } => {
                let b = Buf {
                    index: false,
                    dynamic: *dynamic,
                    write_only: *write_only,
                    count: *vertices,
                    bytes: vec![None; *vertices as usize * VERTEX_BYTES],
                    disposed: false,
                };
                if let Some(old) = self.vb_slots[*slot as usize].replace(self.bufs.len()) {
                    self.bufs[old].disposed = true;
                }
                self.bufs.push(b);
            }
            Op::CreateIndexBuffer { slot, indices, write_only } => {
                let b = Buf {
                    index: true,
                    dynamic: false,
                    write_only: *write_only,
                    count: *indices,
                    bytes: vec![None; *indices as usize * 2],
                    disposed: false,
                };
                if let Some(old) = self.ib_slots[*slot as usize].replace(self.bufs.len()) {
                    self.bufs[old].disposed = true;
                }
                self.bufs.push(b);
            }
            Op::CreateEffect { slot, kind } => {
                self.effects[*slot as usize] = Some(EffectM {
                    kind: *kind,
                    tex: None,
                    tex2: None,
                    diffuse: [255; 3],
                    world: (0, 0),
                    texture_enabled: false,
                    vertex_color: false,
                    reference_alpha: 0,
                });
                if *kind == EffectKind::Basic {
                    // BasicEffect uploads its white texel: outside any pass.
                    self.close_pass();
                    self.unsettle_spans();
                }
            }
            Op::CreateQuery { slot } => {
                self.queries[*slot as usize] = Some(QueryM { disposed: false, phase: Phase::Idle });
            }
            Op::SetTexels { tex, level, rect, color, pattern, elem, start, .. } => {
                let id = self.image_id(*tex).expect("checked");
                let s = &mut self.images[id].levels[*level as usize];
                let r = rect.unwrap_or(R { x: 0, y: 0, w: s.w, h: s.h });
                let mut n = 0;
                for y in r.y..r.y + r.h {
                    for x in r.x..r.x + r.w {
                        let texel = match elem {
                            Elem::Color => texel_color(*color, *pattern, start + n),
                            _ => Rgba([0; 4]),
                        };
                        s.px[(y * s.w + x) as usize] = Px::Exact(texel.0);
                        n += 1;
                    }
                }
                self.close_pass();
            }
            Op::GetTexels { tex, level, rect, .. } => {
                let id = self.image_id(*tex).expect("checked");
                let s = &self.images[id].levels[*level as usize];
                let predicted = region(s, *rect);
                self.flush();
                self.checks.texels +=
                    predicted.iter().filter(|p| p.value().is_some()).count() as u64;
                return check_texels(&predicted, value).map(Some);
            }
            Op::GetBackBuffer { rect, .. } => {
                let predicted = region(&self.images[0].levels[0], *rect);
                self.flush();
                self.checks.texels +=
                    predicted.iter().filter(|p| p.value().is_some()).count() as u64;
                return check_texels(&predicted, value).map(Some);
            }
            Op::SetVertices { slot, offset, vertices, start, count, stride, discard } => {
                let id = self.vb_slots[*slot as usize].expect("checked");
                let b = &mut self.bufs[id];
                if *discard && b.dynamic {
                    b.bytes.iter_mut().for_each(|x| *x = None);
                }
                let stride = if *stride == 0 { VERTEX_BYTES } else { *stride as usize };
                for (i, v) in vertices[*start..start + count].iter().enumerate() {
                    let at = *offset as usize + i * stride;
                    for (k, byte) in encode(v).iter().enumerate() {
                        b.bytes[at + k] = Some(*byte);
                    }
                }
                if stride != VERTEX_BYTES {
                    // The bytes between elements are read back first.
                    self.flush();
                }
                self.close_pass();
            }
            Op::GetVertices { slot, offset, count, stride } => {
                let id = self.vb_slots[*slot as usize].expect("checked");
                let b = &self.bufs[id];
                let stride = if *stride == 0 { VERTEX_BYTES } else { *stride as usize };
                let mut want_bytes = Vec::new();
                for i in 0..*count {
                    let at = *offset as usize + i * stride;
                    want_bytes.extend_from_slice(&b.bytes[at..at + VERTEX_BYTES]);
                }
                self.flush();
                check_bytes(&want_bytes, value)?;
            }
            Op::SetIndices { slot, offset, indices, start, count, .. } => {
                let id = self.ib_slots[*slot as usize].expect("checked");
                let b = &mut self.bufs[id];
                for (i, index) in indices[*start..start + count].iter().enumerate() {
                    let at = *offset as usize + i * 2;
                    let [lo, hi] = index.to_le_bytes();
                    b.bytes[at] = Some(lo);
                    b.bytes[at + 1] = Some(hi);
                }
                self.close_pass();
            }
            Op::GetIndices { slot, offset, count } => {
                let id = self.ib_slots[*slot as usize].expect("checked");
                let b = &self.bufs[id];
                let want_bytes = b.bytes[*offset as usize..*offset as usize + count * 2].to_vec();
                self.flush();
                let got = match value {
                    Value::Indices(v) => v.iter().flat_map(|i| i.to_le_bytes()).collect(),
                    other => return Err(format!("indices expected, got {other:?}")),
                };
                check_bytes(&want_bytes, &Value::Bytes(got))?;
            }
            Op::BindTargets { slots } => {
                let ids: Vec<usize> =
                    slots.iter().map(|s| self.rt_slots[*s as usize].expect("checked")).collect();
                if ids == self.bound && !self.bound_destroyed {
                    return Ok(None); // the same set: nothing happens
                }
                let leaving: Vec<usize> =
                    self.bound.iter().filter(|id| !ids.contains(id)).copied().collect();
                for id in leaving {
                    self.generate_mips(id);
                }
                self.bound = ids;
                self.bound_destroyed = false;
                self.bind_starts();
                self.serial += 1;
                self.open = true;
            }
            Op::BindVertexBuffer { slot, offset } => {
                self.stream = slot.map(|s| (self.vb_slots[s as usize].expect("checked"), *offset));
            }
            Op::BindIndexBuffer { slot } => {
                self.indices = slot.map(|s| self.ib_slots[s as usize].expect("checked"));
            }
            Op::Clear { color } => self.clear(Some(*color), Some(4)),
            Op::ClearWith { color, depth } => self.clear(*color, *depth),
            Op::SetDepthTest { on } => self.depth_test = *on,
            Op::SpriteBegin { immediate, depth_test } => {
                self.batch = Some(Batch {
                    immediate: *immediate,
                    begin_size: self.primary_size(),
                    depth_test: *depth_test,
                    queue: Vec::new(),
                });
            }
            Op::SpriteDraw { tex, rect, tint, depth } => {
                let id = self.image_id(*tex).expect("checked");
                let sprite = Sprite { image: id, rect: *rect, tint: *tint, depth: *depth };
                let batch = self.batch.as_mut().expect("checked");
                if batch.immediate {
                    let (depth_test, projected) = (batch.depth_test, batch.begin_size);
                    self.draw_sprite(&sprite, depth_test, Some(projected));
                } else {
                    batch.queue.push(sprite);
                }
            }
            Op::SpriteEnd => {
                let batch = self.batch.take().expect("checked");
                for sprite in &batch.queue {
                    self.draw_sprite(sprite, batch.depth_test, None);
                }
            }
            Op::EffectTexture { effect, second, tex } => {
                let id = tex.map(|t| self.image_id(t).expect("checked"));
                let e = self.effects[*effect as usize].as_mut().expect("checked");
                if *second {
                    e.tex2 = id;
                } else {
                    e.tex = id;
                }
            }
            Op::EffectDiffuse { effect, rgb } => {
                self.effects[*effect as usize].as_mut().expect("checked").diffuse = *rgb;
            }
            Op::EffectWorld { effect, dx, dy } => {
                self.effects[*effect as usize].as_mut().expect("checked").world = (*dx, *dy);
            }
            Op::EffectFlags { effect, texture, vertex_color } => {
                let e = self.effects[*effect as usize].as_mut().expect("checked");
                if e.kind == EffectKind::Basic {
                    e.texture_enabled = *texture;
                }
                e.vertex_color = *vertex_color;
            }
            Op::EffectReferenceAlpha { effect, value } => {
                self.effects[*effect as usize].as_mut().expect("checked").reference_alpha = *value;
            }
            Op::Apply { effect } => self.applied = self.effects[*effect as usize].clone(),
            Op::DrawUser { vertices, offset, primitives, .. } => {
                let used = &vertices[*offset as usize..];
                let tris = strip(used, *primitives as usize);
                self.draw_geometry(&tris);
            }
            Op::DrawPrimitives { start, primitives } => {
                let (vb, offset) = self.stream.expect("checked");
                let b = &self.bufs[vb];
                let first = (offset + start) as usize;
                let verts: Vec<V> = (first..first + *primitives as usize + 2)
                    .map(|i| {
                        decode(&b.bytes[i * VERTEX_BYTES..(i + 1) * VERTEX_BYTES])
                            .unwrap_or(UNKNOWN_VERTEX)
                    })
                    .collect();
                let tris = strip(&verts, *primitives as usize);
                self.draw_geometry(&tris);
            }
            Op::DrawIndexed { base, start, primitives, .. } => {
                let tris = self.indexed_vertices(*base, *start, *primitives).expect("checked");
                self.draw_geometry(&tris);
            }
            Op::QueryBegin { slot } => {
                let epoch = self.epoch;
                let q = self.queries[*slot as usize].as_ref().expect("checked");
                if matches!(q.phase, Phase::Ended { epoch: e, .. } if e == epoch) {
                    // One native query counts one span per submission: the frame is flushed.
                    self.flush();
                }
                let pos = self.position();
                let q = self.queries[*slot as usize].as_mut().expect("checked");
                q.phase = Phase::Begun { pos, uncertain: false, count: Some(0) };
            }
            Op::QueryEnd { slot } => {
                let q = self.queries[*slot as usize].as_ref().expect("checked");
                let Phase::Begun { count, .. } = q.phase else { unreachable!("checked") };
                // The end op goes into the pass (opening one if none is open).
                self.open_pass();
                let epoch = self.epoch;
                let q = self.queries[*slot as usize].as_mut().expect("checked");
                q.phase = Phase::Ended { epoch, count, complete: false };
            }
            Op::QueryComplete { slot } => {
                let q = self.queries[*slot as usize].as_mut().expect("checked");
                match (&mut q.phase, value) {
                    (Phase::Ended { complete, .. }, Value::Bool(now)) => {
                        if *complete && !now {
                            return Err("IsComplete went back to false".to_owned());
                        }
                        *complete |= *now;
                    }
                    (_, Value::Bool(true)) => {
                        return Err("IsComplete is true before any span ended".to_owned());
                    }
                    _ => {}
                }
            }
            Op::QueryPixels { slot } => {
                let q = self.queries[*slot as usize].as_mut().expect("checked");
                if let Phase::Ended { complete, count, .. } = &mut q.phase {
                    *complete = true;
                    if let (Some(want), Value::Count(got)) = (count, value) {
                        self.checks.counts += 1;
                        if *want != *got as u64 {
                            return Err(format!("PixelCount {got}, the model counts {want}"));
                        }
                    }
                }
            }
            Op::Dispose { res } => self.dispose(*res, false),
            Op::Drop { res } => self.dispose(*res, true),
            Op::Present => {
                self.presents += 1;
                self.flush();
                self.back_pending_discard = true;
            }
            Op::Flush => self.flush(),
        }
        Ok(None)
    }

    /// A bind cycle begins: each target of a `DiscardContents` bind is cleared to opaque black
    /// and depth 1; a preserving one keeps its content. The first target's usage is the
    /// bind's; another target whose usage differs holds content the contract leaves open.
    fn bind_starts(&mut self) {
        let keeps = |kind: ImageKind| match kind {
            ImageKind::Target { preserve } => preserve,
            _ => false,
        };
        let ids = if self.bound.is_empty() { vec![0] } else { self.bound.clone() };
        let first = keeps(self.images[ids[0]].kind) || self.sabotage == Sabotage::DiscardKeeps;
        for (i, id) in ids.iter().enumerate() {
            let own = keeps(self.images[*id].kind) || self.sabotage == Sabotage::DiscardKeeps;
            if *id != 0 {
                self.images[*id].mips_dirty = true; // resolved, with its mips, when unbound
            }
            let s = &mut self.images[*id].levels[0];
            if i > 0 && own != first {
                s.fill(Px::Undefined);
                s.fill_depth(None);
            } else if !first {
                s.fill(BLACK);
                s.fill_depth(Some(1.0));
            }
        }
        if self.bound.is_empty() {
            self.back_pending_discard = false;
        }
    }

    /// A mipmapped target leaves the bound set: XNA resolves it and generates its mips from
    /// level 0. When level 0 holds one value every level does; otherwise the model knows only
    /// that the levels are defined. (A target that was not bound since its last generation is
    /// not regenerated; were it, a level that differs from what generation gives would be
    /// unknown.)
    fn generate_mips(&mut self, id: usize) {
        let image = &mut self.images[id];
        if image.levels.len() < 2 {
            return;
        }
        let generated = image.levels[0].uniform().unwrap_or_else(|| image.levels[0].blur());
        for level in &mut image.levels[1..] {
            if image.mips_dirty {
                level.fill(generated);
            } else if level.px.iter().any(|p| *p != generated) {
                let either = if generated == Px::Undefined { Px::Undefined } else { Px::Defined };
                level
                    .px
                    .iter_mut()
                    .for_each(|p| *p = if *p == Px::Undefined { *p } else { either });
            }
        }
        image.mips_dirty = false;
    }

    fn clear(&mut self, color: Option<Rgba>, depth: Option<u8>) {
        let primary = self.primary();
        let has_depth = self.images[primary].levels[0].depth.is_some();
        if color.is_none() && !(depth.is_some() && has_depth) {
            return; // nothing to clear: nothing recorded
        }
        self.open_pass();
        let ids = if self.bound.is_empty() { vec![0] } else { self.bound.clone() };
        for id in ids {
            if let Some(c) = color {
                self.images[id].levels[0].fill(Px::Exact(c.0));
                self.images[id].mips_dirty |= id != 0;
            }
        }
        if let Some(d) = depth {
            self.images[primary].levels[0].fill_depth(Some(f32::from(d) / 4.0));
        }
    }

    /// Draws a sprite into the primary target; `projected` is the target size an Immediate
    /// batch's projection was taken for (its `Begin`), which scales the sprite when the target
    /// has another size.
    fn draw_sprite(&mut self, sprite: &Sprite, depth_test: bool, projected: Option<(i32, i32)>) {
        let R { x, y, w, h } = sprite.rect;
        self.open_pass();
        if w <= 0 || h <= 0 {
            return;
        }
        let (tw, th) = self.primary_size();
        if let Some((pw, ph)) = projected.filter(|p| *p != (tw, th)) {
            // Scaled by target / projected size: the model covers only its bounding box.
            let scale = |v: i32, t: i32, p: i32, up: bool| {
                let n = v * t;
                if up {
                    (n + p - 1).div_euclid(p)
                } else {
                    n.div_euclid(p)
                }
            };
            let rect = PxRect {
                x0: scale(x, tw, pw, false),
                y0: scale(y, th, ph, false),
                x1: scale(x + w, tw, pw, true),
                y1: scale(y + h, th, ph, true),
            };
            let image = &self.images[sprite.image];
            let colour = product(&[image.sampled(), Px::Exact(sprite.tint.0)], 1.0);
            let fill = Fill {
                rect,
                exact: false,
                paint: Paint::Solid(colour.blur()),
                z: Some(f32::from(sprite.depth) / 4.0),
                depth_test,
                alpha_greater: None,
            };
            self.paint(&fill);
            return;
        }
        let image = &self.images[sprite.image];
        let level0 = &image.levels[0];
        let tint = Px::Exact(sprite.tint.0);
        let paint = if (w, h) == (level0.w, level0.h) {
            Paint::Copy { source: level0.clone(), x, y, tint }
        } else {
            Paint::Solid(product(&[image.sampled(), tint], 1.0))
        };
        let fill = Fill {
            rect: PxRect { x0: x, y0: y, x1: x + w, y1: y + h },
            exact: true,
            paint,
            z: Some(f32::from(sprite.depth) / 4.0),
            depth_test,
            alpha_greater: None,
        };
        self.paint(&fill);
    }

    /// A geometry draw of `tris` with the applied effect.
    fn draw_geometry(&mut self, tris: &[[V; 3]]) {
        let e = self.applied.clone().expect("checked");
        let (w, h) = self.primary_size();
        self.open_pass();
        if tris.iter().flatten().any(|v| *v == UNKNOWN_VERTEX) {
            // Vertices never written (a new buffer's, or bytes a Discard threw away): anything
            // on the target may change, to content no rule defines.
            let whole = PxRect { x0: 0, y0: 0, x1: w, y1: h };
            let fill = Fill {
                rect: whole,
                exact: false,
                paint: Paint::Solid(Px::Undefined),
                z: None,
                depth_test: self.depth_test,
                alpha_greater: None,
            };
            self.paint(&fill);
            return;
        }
        let vertex_color = if e.vertex_color {
            same(tris, |v| v.c).map_or(Px::Defined, |c| Px::Exact(c.0))
        } else {
            Px::Exact([255; 4])
        };
        let [r, g, b] = e.diffuse;
        let diffuse = Px::Exact([r, g, b, 255]);
        let sample = |t: Option<usize>| t.map_or(Px::Defined, |id| self.images[id].sampled());
        let colour = match e.kind {
            EffectKind::Basic if e.texture_enabled => {
                product(&[diffuse, vertex_color, sample(e.tex)], 1.0)
            }
            EffectKind::Basic => product(&[diffuse, vertex_color], 1.0),
            EffectKind::AlphaTest => product(&[diffuse, vertex_color, sample(e.tex)], 1.0),
            EffectKind::DualTexture => {
                let factors = [diffuse, vertex_color, sample(e.tex), sample(e.tex2)];
                let rgb = product(&factors, 2.0);
                let alpha = product(&factors, 1.0);
                match (rgb, alpha) {
                    (Px::Exact(c) | Px::Near(c), Px::Exact(a) | Px::Near(a)) => {
                        Px::Near([c[0], c[1], c[2], a[3]])
                    }
                    (other, _) => other,
                }
            }
        };
        let z = same(tris, |v| v.z).map(|z| f32::from(z) / 4.0);
        let alpha_greater = (e.kind == EffectKind::AlphaTest).then_some(e.reference_alpha);
        for (rect, exact) in coverage(tris, w, h, e.world.0, e.world.1) {
            let fill = Fill {
                rect,
                exact,
                paint: Paint::Solid(colour),
                z,
                depth_test: self.depth_test,
                alpha_greater,
            };
            self.paint(&fill);
        }
    }

    fn dispose(&mut self, res: Res, drop: bool) {
        match res {
            Res::Texture(i) => {
                let id = self.tex_slots[i as usize].expect("checked");
                // Dropping the game's handle is not Dispose: an effect given the texture holds
                // a counted reference and keeps drawing it (XNA's reference semantics); only
                // Dispose ends it for every holder.
                if drop {
                    self.tex_slots[i as usize] = None;
                } else {
                    self.images[id].disposed = true;
                }
            }
            Res::Target(i) => {
                let id = self.rt_slots[i as usize].expect("checked");
                if drop {
                    self.rt_slots[i as usize] = None;
                    self.drop_target(id);
                } else {
                    self.images[id].disposed = true;
                }
            }
            Res::VertexBuffer(i) => {
                let id = self.vb_slots[i as usize].expect("checked");
                self.bufs[id].disposed = true;
                if drop {
                    self.vb_slots[i as usize] = None;
                }
            }
            Res::IndexBuffer(i) => {
                let id = self.ib_slots[i as usize].expect("checked");
                self.bufs[id].disposed = true;
                if drop {
                    self.ib_slots[i as usize] = None;
                }
            }
            Res::Effect(i) => self.effects[i as usize] = None,
            Res::Query(i) => {
                if drop {
                    self.queries[i as usize] = None;
                } else if let Some(q) = &mut self.queries[i as usize] {
                    q.disposed = true;
                }
            }
        }
    }

    /// A target's wrapper is dropped: bound, it is detached (recording returns to the back
    /// buffer, whose content from here is not specified, and `Present` is refused until the
    /// next bind); then it is disposed.
    fn drop_target(&mut self, id: usize) {
        if self.is_bound(id) {
            self.bound.clear();
            self.bound_destroyed = true;
            self.close_pass();
            // Recording continues on the back buffer without a bind: nothing is discarded.
            self.back_pending_discard = false;
            self.images[0].levels[0].fill(Px::Undefined);
        }
        self.images[id].disposed = true;
    }
}

fn mip_count(w: i32, h: i32) -> usize {
    (32 - (w.max(h).max(1) as u32).leading_zeros()) as usize
}

fn region(s: &Surface, rect: Option<R>) -> Vec<Px> {
    let r = rect.unwrap_or(R { x: 0, y: 0, w: s.w, h: s.h });
    let mut out = Vec::new();
    for y in r.y..r.y + r.h {
        for x in r.x..r.x + r.w {
            out.push(s.at(x, y));
        }
    }
    out
}

fn check_texels(predicted: &[Px], value: &Value) -> Result<Vec<Px>, String> {
    let Value::Texels(got) = value else { return Err(format!("texels expected, got {value:?}")) };
    if got.len() != predicted.len() {
        return Err(format!("{} texels read, {} expected", got.len(), predicted.len()));
    }
    for (i, (p, g)) in predicted.iter().zip(got).enumerate() {
        if !p.admits(*g) {
            return Err(format!("texel {i} of the region is {g:?}, the model says {p:?}"));
        }
    }
    Ok(predicted.to_vec())
}

fn check_bytes(want_bytes: &[Option<u8>], value: &Value) -> Result<(), String> {
    let Value::Bytes(got) = value else { return Err(format!("bytes expected, got {value:?}")) };
    for (i, (w, g)) in want_bytes.iter().zip(got).enumerate() {
        if let Some(w) = w {
            if w != g {
                return Err(format!("byte {i} read back is {g}, the model says {w}"));
            }
        }
    }
    Ok(())
}
