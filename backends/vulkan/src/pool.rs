//! The pool of dropped render targets' native objects.
//!
//! Games often create a render target, draw with it and drop it within a frame. Once the GPU
//! is done with a dropped target (its last submission has completed), its images, memory and
//! views come here instead of being destroyed, keyed by the target's [`TextureDesc`]; a new
//! target of the same description takes them instead of allocating. Whatever stays unused for
//! more than [`TargetPool::keep_submissions`] submissions is handed back to be destroyed.
//!
//! Reuse needs nothing of the plan: a new target's content is undefined, so the compiler's
//! first barrier on it already transitions from `UNDEFINED`, whatever the image last held.

use xnagraph_graph::{BackendError, NativeHandle, SubmissionId, TextureDesc};

use crate::texture::{self, NativeTexture};
use crate::VulkanBackend;

struct Pooled {
    texture: NativeTexture,
    /// The last submission made when it was pooled.
    pooled_at: SubmissionId,
}

/// Idle native render targets, by description.
pub(crate) struct TargetPool {
    entries: Vec<Pooled>,
    keep_submissions: u64,
}

impl TargetPool {
    /// A pool whose entries are trimmed after `keep_submissions` submissions unused.
    pub fn new(keep_submissions: u64) -> TargetPool {
        TargetPool { entries: Vec::new(), keep_submissions }
    }

    /// Whether a texture may be pooled: a render target not standing in for a swapchain image.
    pub fn accepts(texture: &NativeTexture) -> bool {
        texture.desc.render_target.is_some() && texture.presenting.is_none()
    }

    /// Keeps `texture`, whose last use has completed, for reuse; `now` is the last submission
    /// made.
    pub fn put(&mut self, texture: NativeTexture, now: SubmissionId) {
        self.entries.push(Pooled { texture, pooled_at: now });
    }

    /// Takes the longest pooled texture of description `desc`, ready to be used as a new one
    /// (no last use). Oldest first, so a steady churn cycles through every pooled texture and
    /// none sits unused until it is trimmed, only to be allocated again at the next burst.
    pub fn take(&mut self, desc: &TextureDesc) -> Option<NativeTexture> {
        let i = self.entries.iter().position(|p| p.texture.desc == *desc)?;
        let mut texture = self.entries.remove(i).texture;
        texture.last_use = SubmissionId(0);
        Some(texture)
    }

    /// Removes what has stayed unused for more than the keep period as of submission `now`;
    /// the caller destroys it.
    pub fn trim(&mut self, now: SubmissionId) -> Vec<NativeTexture> {
        let keep = self.keep_submissions;
        if !self.entries.iter().any(|p| now.0.saturating_sub(p.pooled_at.0) > keep) {
            return Vec::new();
        }
        let (stale, kept): (Vec<_>, Vec<_>) =
            self.entries.drain(..).partition(|p| now.0.saturating_sub(p.pooled_at.0) > keep);
        self.entries = kept;
        stale.into_iter().map(|p| p.texture).collect()
    }

    /// Removes everything (teardown).
    pub fn drain(&mut self) -> Vec<NativeTexture> {
        self.entries.drain(..).map(|p| p.texture).collect()
    }

    /// Native images held.
    pub fn image_count(&self) -> usize {
        self.entries.iter().map(|p| p.texture.image_count()).sum()
    }
}

impl VulkanBackend {
    /// A new texture of description `desc`: a pooled one of the same description, else newly
    /// allocated.
    pub(crate) fn create_or_reuse(
        &mut self,
        desc: &TextureDesc,
    ) -> Result<NativeHandle, BackendError> {
        let texture = match self.pool.take(desc) {
            Some(t) => t,
            None => {
                let t = texture::create(&self.gpu, &self.formats, desc, self.share_transients)?;
                self.images_allocated += t.image_count() as u64;
                t
            }
        };
        Ok(self.textures.insert(texture))
    }

    /// Keeps a texture whose last use has completed in the pool when it is a target, else
    /// destroys it.
    pub(crate) fn pool_or_destroy(&mut self, texture: NativeTexture) {
        if TargetPool::accepts(&texture) {
            self.pool.put(texture, self.last_submitted);
        } else {
            // SAFETY: its last submission has completed (caller's contract).
            unsafe { texture::destroy(&self.gpu, texture) };
        }
    }

    /// Destroys every pooled texture (the GPU is idle: `wait_idle` frees everything whose
    /// last user has gone).
    pub(crate) fn empty_pool(&mut self) {
        for texture in self.pool.drain() {
            // SAFETY: pooled textures are used by no submission.
            unsafe { texture::destroy(&self.gpu, texture) };
        }
    }

    /// Destroys pooled textures unused for longer than the keep period.
    pub(crate) fn trim_pool(&mut self) {
        for texture in self.pool.trim(self.last_submitted) {
            // SAFETY: pooled textures are used by no submission.
            unsafe { texture::destroy(&self.gpu, texture) };
        }
    }
}
