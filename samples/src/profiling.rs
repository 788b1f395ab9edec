//! `--profile-file` and `--profile`: the run's `puffin` scopes, written as a `.puffin` file that
//! puffin_viewer opens (`puffin_viewer --file F`), or served live over TCP to puffin_viewer
//! (`puffin_viewer --url 127.0.0.1:8585`).
//!
//! With neither, puffin's scopes stay off (its default) and the library's scopes cost one
//! relaxed atomic load each.
//!
//! While a [`ProfileFile`] is alive, puffin's scopes are on and every finished profiler frame
//! (one per rendered frame, see [`frame_done`]) is kept in memory; [`ProfileFile::write`]
//! writes them all at the end of the run.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where `--profile` serves the scopes.
pub const SERVE_ADDRESS: &str = "127.0.0.1:8585";

/// Starts serving puffin frames on [`SERVE_ADDRESS`] and turns the scopes on; frames go to
/// connected viewers until the server drops.
pub fn serve() -> Result<puffin_http::Server, String> {
    let server = puffin_http::Server::new(SERVE_ADDRESS)
        .map_err(|e| format!("--profile: cannot serve on {SERVE_ADDRESS}: {e:#}"))?;
    puffin::set_scopes_on(true);
    Ok(server)
}

/// Closes the current profiler frame: the scopes recorded since the last call become one frame,
/// handed to every sink (the file's, the server's).
pub fn frame_done() {
    puffin::GlobalProfiler::lock().new_frame();
}

/// The frames of one run, kept until they are written to `path`.
pub struct ProfileFile {
    path: PathBuf,
    file: std::fs::File,
    view: puffin::GlobalFrameView,
}

impl ProfileFile {
    /// Creates `path` (so that an unwritable path is reported before rendering) and turns
    /// puffin's scopes on.
    pub fn create(path: &Path) -> Result<ProfileFile, String> {
        let file = std::fs::File::create(path)
            .map_err(|e| format!("--profile-file {}: {e}", path.display()))?;
        let view = puffin::GlobalFrameView::default();
        view.lock().set_max_recent(usize::MAX);
        puffin::set_scopes_on(true);
        Ok(ProfileFile { path: path.to_owned(), file, view })
    }

    /// The file the profile goes to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Closes the last frame, turns the scopes off and writes every frame in puffin's format.
    pub fn write(self) -> Result<(), String> {
        frame_done();
        puffin::set_scopes_on(false);
        let error =
            |e: &dyn std::fmt::Display| format!("--profile-file {}: {e}", self.path.display());
        let mut out = std::io::BufWriter::new(&self.file);
        self.view.lock().write(&mut out).map_err(|e| error(&e))?;
        out.flush().map_err(|e| error(&e))?;
        Ok(())
    }
}
