//! Dumps the values of endings (both sides to move, in the file layout's slot order, 255 where no
//! position) as raw bytes, for codec experiments:
//!
//! ```text
//! cargo run --release -p tabla-endgame --example tb_dump -- DIR ENDING...
//! ```
//!
//! Writes DIR/ENDING.white.u8, DIR/ENDING.black.u8 and prints each ending's men in slot order.

use std::path::PathBuf;
use tabla_endgame::{Men, Solved};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: tb_dump DIR ENDING...")?);
    let mut solved = Solved::new();
    for name in args {
        let men: Men = name.parse()?;
        solved.solve(men)?;
        let solution = solved.get(men.canonical().0).ok_or("not solved")?;
        let layout = solution.layout();
        let values = solution.layout_values();
        std::fs::write(dir.join(format!("{men}.white.u8")), &values[0])?;
        std::fs::write(dir.join(format!("{men}.black.u8")), &values[1])?;
        println!(
            "{men} size {} kings {} order {:?}",
            layout.size(),
            layout.kings_pairs(),
            layout.men_order()
        );
    }
    Ok(())
}
