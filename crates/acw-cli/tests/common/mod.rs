//! What the `acw` command's tests share: a scratch file that cleans up after itself.

use std::ops::Deref;
use std::path::{Path, PathBuf};

/// A file path in a directory of its own under the system's temporary directory, named after the test
/// process, the test file (`prefix`) and the file (`name`), so that tests running at once never share a
/// directory. The directory and everything in it are removed when the `Scratch` is dropped, so a test run
/// leaves nothing behind.
pub struct Scratch {
    dir: PathBuf,
    path: PathBuf,
}

impl Scratch {
    /// A fresh, empty directory for the file `name`.
    pub fn new(prefix: &str, name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("{prefix}-{}-{name}", std::process::id()));
        // A directory left by an earlier run of the same process id is emptied first.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory can be made");
        let path = dir.join(name);
        Self { dir, path }
    }
}

impl Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.path
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
