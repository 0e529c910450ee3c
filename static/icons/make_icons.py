"""Draw Kostka's PNG icons (a die showing five) with Pillow; run after changing the design.

python static/icons/make_icons.py
"""

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
BROWN, CREAM = (122, 59, 29, 255), (247, 242, 232, 255)
PIPS = [(0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7)]


def draw(size: int, maskable: bool) -> Image.Image:
    img = Image.new("RGBA", (size, size), BROWN if maskable else (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    # maskable icons keep their content inside the central 80 % safe zone
    pad = size * (0.2 if maskable else 0.06)
    box = (pad, pad, size - pad, size - pad)
    side = size - 2 * pad
    d.rounded_rectangle(box, radius=side * 0.18, fill=CREAM, outline=BROWN, width=max(2, int(side * 0.05)))
    r = side * 0.085
    for fx, fy in PIPS:
        cx, cy = pad + fx * side, pad + fy * side
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BROWN)
    return img


if __name__ == "__main__":
    draw(192, False).save(HERE / "icon-192.png", optimize=True)
    draw(512, False).save(HERE / "icon-512.png", optimize=True)
    draw(512, True).save(HERE / "icon-maskable-512.png", optimize=True)
