//! `output-contract`: the contract checks for CI pipelines. The commands are `output_contract::cli`
//! (shared with the npm package's command); this binary does their reading and printing.

use output_contract::cli::{self, Io};
use std::io::{Read, Write};
use std::process::ExitCode;

/// The file system and standard input, read as the commands ask.
struct Native;

impl Io for Native {
    fn read_file(&mut self, path: &str) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| e.to_string())
    }

    /// In chunks as they arrive: `validate` streams standard input, never holding it whole.
    fn read_stdin(&mut self, chunk: &mut dyn FnMut(&[u8])) -> Result<(), String> {
        let mut stdin = std::io::stdin().lock();
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = stdin.read(&mut buf).map_err(|e| e.to_string())?;
            match buf.get(..n) {
                Some(read) if !read.is_empty() => chunk(read),
                _ => return Ok(()),
            }
        }
    }

    fn list_dir(&mut self, dir: &str) -> Result<Vec<(String, bool)>, String> {
        let mut entries = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(|e| e.to_string())? {
            let path = entry.map_err(|e| e.to_string())?.path();
            entries.push((path.to_string_lossy().into_owned(), path.is_dir()));
        }
        Ok(entries)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = cli::run(&args, &mut Native);
    // A closed pipe (`| head`) is not an error worth a panic.
    let _ = std::io::stdout().write_all(outcome.stdout.as_bytes());
    let _ = std::io::stderr().write_all(outcome.stderr.as_bytes());
    ExitCode::from(outcome.code)
}
