#!/usr/bin/env python3
"""What a table file's values cost under candidate codings: the study behind the next file format.

Reads the values `cargo run --release -p tabla-endgame --example tb_dump -- DIR ENDING...` writes
(`DIR/ENDING.white.u8`, one byte a slot in the file layout's order, 255 where no position) and
prints, for each file and slot-order permutation asked:

- zstd at a level over blocks of 32,768 values (today's format) and over small blocks with a
  dictionary trained on the table (what a probe of a couple of microseconds could afford);
- the static conditional entropy of a value given its neighbours already decoded (`L` the slot
  before, `U` the slot a row before): a lower bound for a coder with that context and a stored
  model (optimistic when the contexts are many for the values).

Slots holding no position repeat the value before them, as the files do.

    pip install numpy zstandard
    python3 scripts/tb_codec_study.py DIR/KQvKR.white.u8:462,64,64 DIR/KRvKP.black.u8:1806,64,48:2,0,1

The shape after the colon is the layout's (kings' pairs, then each group's slots); an optional
permutation of its axes follows (`2,0,1`: the last group outermost, the kings next).
"""

import sys

import numpy as np
import zstandard


def fill(a):
    """255 (no position) replaced by the value before it."""
    idx = np.where(a != 255, np.arange(len(a)), 0)
    np.maximum.accumulate(idx, out=idx)
    out = a[idx]
    if a[0] == 255:
        out[(idx == 0)] = 0
    return out


def zstd_blocks(values, level, block, dict_size=0):
    blocks = [values[i : i + block].tobytes() for i in range(0, len(values), block)]
    extra = 0
    if dict_size:
        sample = blocks[:: max(1, len(blocks) // 4000)]
        d = zstandard.train_dictionary(dict_size, sample, level=level)
        c = zstandard.ZstdCompressor(
            level=level, dict_data=d, write_content_size=False, write_checksum=False, write_dict_id=False
        )
        extra = len(d.as_bytes())
    else:
        c = zstandard.ZstdCompressor(level=level)
    return sum(len(c.compress(b)) for b in blocks) + extra


def shift(values, k):
    return np.concatenate([np.zeros(k, np.uint8), values[:-k]])


def static_bits(ctx, v):
    key = ctx.astype(np.int64) * 256 + v
    u, cnt = np.unique(key, return_counts=True)
    _, cinv = np.unique(u // 256, return_inverse=True)
    tot = np.bincount(cinv, weights=cnt)
    return -(cnt * np.log2(cnt / tot[cinv])).sum(), len(u)


def main():
    for spec in sys.argv[1:]:
        parts = spec.split(":")
        path, dims = parts[0], tuple(int(d) for d in parts[1].split(","))
        perm = tuple(int(p) for p in parts[2].split(",")) if len(parts) > 2 else tuple(range(len(dims)))
        a = np.fromfile(path, np.uint8).reshape(dims)
        a = np.ascontiguousarray(a.transpose(perm)).ravel()
        row = dims[perm[-1]]
        real = a != 255
        f = fill(a)
        base = zstd_blocks(f, 9, 32768)
        print(f"{path} order {perm}: {len(a):,} slots, {real.mean():.2f} legal")
        print(f"  zstd 9, 32K blocks:        {base:12,} bytes  {base * 8 / len(a):.3f} bits a slot")
        for level, block in ((9, 1024), (19, 1024), (19, 4096)):
            z = zstd_blocks(f, level, block, 65536)
            print(f"  zstd {level}, {block} + dictionary: {z:12,} bytes  {z / base:.2f}x")
        v = f[real]
        left = shift(f, 1)[real].astype(np.int64)
        up = shift(f, row)[real].astype(np.int64)
        for label, ctx in (("L", left), ("L,U", left * 256 + up)):
            bits, cells = static_bits(ctx, v)
            print(f"  H(value | {label}):           {bits / 8:12,.0f} bytes  {bits / 8 / base:.2f}x  ({cells:,} cells)")


if __name__ == "__main__":
    main()
