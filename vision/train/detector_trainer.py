"""Training of the dice detector with PyTorch (training only: the app never imports this module).

    python -m vision.train.detector_trainer --leave-out webcam_white_dice --out models/detector.onnx

renders the patches (``vision.train.detector_data``; ``--cache DIR`` keeps them for the next run), trains for
``--minutes`` of wall time on ``--threads`` CPU threads and exports one ONNX graph (opset 13; Conv with batch
norm folded, ReLU, nearest Resize, Concat: ops both onnxruntime and cv2.dnn read).
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from vision.reader import CHANNELS
from vision.train import detector_data as dd


def conv(cin: int, cout: int, stride: int = 1, k: int = 3) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, k, stride, k // 2, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Detector(nn.Module):
    """Stride-8 output over a stride-16 context (receptive field about 100 px: dice up to 64 px), about
    1,400 multiply-adds an input pixel."""

    def __init__(self) -> None:
        super().__init__()
        self.s4 = nn.Sequential(conv(3, 12, 2), conv(12, 24, 2))
        self.s8 = nn.Sequential(conv(24, 48, 2), conv(48, 48))
        self.s16 = nn.Sequential(conv(48, 64, 2), conv(64, 64))
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.fuse = nn.Sequential(conv(112, 48, k=1), conv(48, 48))
        self.head = nn.Conv2d(48, CHANNELS, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f8 = self.s8(self.s4(x))
        f16 = self.s16(f8)
        return self.head(self.fuse(torch.cat([self.up(f16), f8], dim=1)))


def loss_fn(out: torch.Tensor, t: torch.Tensor) -> tuple[torch.Tensor, dict[str, float]]:
    heat, value, cocked, size, off, w = t[:, 0], t[:, 1], t[:, 2], t[:, 3], t[:, 4:6], t[:, 6]
    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    pos = (heat >= 1.0).float()
    l_heat = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * (1 - heat) ** 4 * p**2 * torch.log(1 - p)).sum()
    l_heat = l_heat / pos.sum().clamp(min=1.0)
    m = w > 0
    if m.any():
        logits = out[:, 1:7].permute(0, 2, 3, 1)[m]
        l_val = nn.functional.cross_entropy(logits, value[m].long(), label_smoothing=0.02)
        l_cock = nn.functional.binary_cross_entropy_with_logits(out[:, 7][m], cocked[m], pos_weight=torch.tensor(3.0))
        l_size = (out[:, 8][m] - size[m]).abs().mean()
        l_off = (out[:, 9:11].permute(0, 2, 3, 1)[m] - off.permute(0, 2, 3, 1)[m]).abs().mean()
    else:
        l_val = l_cock = l_size = l_off = out.sum() * 0
    total = l_heat + 2.0 * l_val + l_cock + 0.5 * l_size + l_off
    return total, {
        "heat": l_heat.item(),
        "value": l_val.item(),
        "cocked": l_cock.item(),
        "size": l_size.item(),
        "offset": l_off.item(),
    }


def dihedral(x: torch.Tensor, t: torch.Tensor, rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """A random flip and transpose of a batch and its targets (a die reads the same turned or mirrored)."""
    if rng.random() < 0.5:
        x, t = x.flip(3), t.flip(3)
        t[:, 4] = -t[:, 4]
    if rng.random() < 0.5:
        x, t = x.flip(2), t.flip(2)
        t[:, 5] = -t[:, 5]
    if rng.random() < 0.5:
        x, t = x.transpose(2, 3), t.transpose(2, 3)
        t = t[:, [0, 1, 2, 3, 5, 4, 6]]
    return x.contiguous(), t.contiguous()


def _render_part(args: tuple[int, int, int, int]) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    torch.set_num_threads(1)
    return dd.rendered_set(*args)


def rendered(
    cache: Path | None, parts: list[tuple[int, int, int, int]], workers: int, log: object
) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
    xs, ts = [], []
    todo = []
    for part in parts:
        f = cache / f"rendered_{'_'.join(map(str, part))}.npz" if cache else None
        if f is not None and f.is_file():
            z = np.load(f)
            xs.append(z["x"])
            ts.append(z["t"])
        else:
            todo.append((part, f))
    if todo:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for (part, f), (x, t) in zip(todo, pool.map(_render_part, [p for p, _ in todo])):
                if f is not None:
                    f.parent.mkdir(parents=True, exist_ok=True)
                    np.savez(f, x=x, t=t)
                xs.append(x)
                ts.append(t)
    return np.concatenate(xs), np.concatenate(ts)


def export(model: nn.Module, out: Path) -> None:
    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, 128, 160)
    torch.onnx.export(
        model,
        (dummy,),
        str(out),
        dynamo=False,
        input_names=["image"],
        output_names=["dice"],
        dynamic_axes={"image": {2: "h", 3: "w"}, "dice": {2: "rows", 3: "cols"}},
        opset_version=13,
        do_constant_folding=True,
    )


def train(
    x: NDArray[np.uint8],
    t: NDArray[np.float32],
    minutes: float,
    batch: int,
    seed: int,
    lr: float,
    log_path: Path | None,
    max_steps: int = 0,
    checkpoint: Path | None = None,
    init: Path | None = None,
) -> Detector:
    """AdamW, warm-up then cosine decay over whichever runs out first: ``max_steps`` or ``minutes`` of wall
    time (a shared machine's speed varies by a factor of ten). ``checkpoint`` keeps the weights every 200
    steps and at the end. ``init``: start from such a checkpoint (a second, shorter run at a lower rate)."""
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = Detector()
    if init is not None:
        model.load_state_dict(torch.load(init))
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    start = time.time()
    budget = minutes * 60
    step = 0
    log = open(log_path, "a") if log_path else None
    running: dict[str, float] = {}
    while True:
        elapsed = time.time() - start
        if elapsed >= budget or (max_steps and step >= max_steps):
            break
        frac = max(elapsed / budget, step / max_steps if max_steps else 0.0)
        for g in opt.param_groups:  # warm up, then cosine down to 2 % over the wall-clock budget
            g["lr"] = lr * min(1.0, (step + 1) / 100) * (0.02 + 0.98 * 0.5 * (1 + np.cos(np.pi * frac)))
        idx = rng.integers(0, len(x), batch)
        xb = torch.from_numpy((x[idx].astype(np.float32) - 128.0) / 64.0).permute(0, 3, 1, 2)
        tb = torch.from_numpy(t[idx].copy())
        xb, tb = dihedral(xb, tb, rng)
        model.train()
        total, parts = loss_fn(model(xb), tb)
        opt.zero_grad()
        total.backward()
        opt.step()
        step += 1
        for k, v in parts.items():
            running[k] = 0.98 * running.get(k, v) + 0.02 * v
        if checkpoint is not None and step % 200 == 0:
            torch.save(model.state_dict(), checkpoint)
        if step % 50 == 0 and log:
            log.write(
                f"step {step} {elapsed / 60:.1f} min lr {opt.param_groups[0]['lr']:.2e} "
                + " ".join(f"{k} {v:.3f}" for k, v in running.items())
                + "\n"
            )
            log.flush()
    if checkpoint is not None:  # the weights the next phase starts from, not those of up to 199 steps before
        torch.save(model.state_dict(), checkpoint)
    if log:
        log.write(f"done: {step} steps, {(time.time() - start) / 60:.1f} min\n")
        log.close()
    return model


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("models/detector.onnx"))
    ap.add_argument(
        "--leave-out",
        choices=(*dd.REAL_SETS, "none"),
        default="webcam_white_dice",
        help="the real set kept out of training whole (its figure is the one that counts)",
    )
    ap.add_argument("--cache", type=Path, help="keep the rendered patches here for the next run")
    ap.add_argument("--parts", type=int, default=4, help="rendered parts (each 700 desk, 120 board, 200 cube)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--minutes", type=float, default=40.0, help="training wall time at most")
    ap.add_argument("--steps", type=int, default=4000, help="training steps at most")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--init", type=Path, help="continue from a checkpoint (the .pt written beside --out)")
    ap.add_argument("--log", type=Path, help="progress log (appended)")
    ap.add_argument("--render-only", action="store_true", help="render the patches into --cache and stop")
    ap.add_argument(
        "--smoke", action="store_true", help="a few steps on a handful of patches (CI; --cache: a smoke cache)"
    )
    args = ap.parse_args(argv)
    torch.set_num_threads(args.threads)
    if args.smoke:
        parts = [(7, 2, 1, 1)]
        real_x, real_t = dd.real_set(args.seed, args.leave_out, per_photo=0, pasted=8)
    else:
        parts = [(1000 + i, 700, 120, 200) for i in range(args.parts)]
        real_x = np.zeros((0, dd.PATCH, dd.PATCH, 3), np.uint8)
        real_t = np.zeros((0, 7, dd.CELLS, dd.CELLS), np.float32)
    t0 = time.time()
    rx, rt = rendered(args.cache, parts, args.workers, None)
    print(f"rendered patches: {len(rx)} ({time.time() - t0:.0f} s)", flush=True)
    if args.render_only:
        return 0
    if not args.smoke:
        leave = None if args.leave_out == "none" else args.leave_out
        real_x, real_t = dd.real_set(args.seed, leave)
    print(f"real patches (without {args.leave_out}): {len(real_x)}", flush=True)
    # real patches count twice: they are fewer and closer to what the reader meets
    x = np.concatenate([rx, real_x, real_x])
    t = np.concatenate([rt, real_t, real_t])
    args.out.parent.mkdir(parents=True, exist_ok=True)  # the checkpoint is written there long before the model
    model = train(
        x,
        t,
        0.2 if args.smoke else args.minutes,
        4 if args.smoke else args.batch,
        args.seed,
        args.lr,
        args.log,
        max_steps=3 if args.smoke else args.steps,
        checkpoint=args.out.with_suffix(".pt"),
        init=args.init,
    )
    export(model, args.out)
    print(
        f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KiB, "
        f"{sum(p.numel() for p in model.parameters()):,} parameters)",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
