# SPDX-License-Identifier: MIT
"""Raw samples as primcost stores them (src/results/packed.h): a JSON array of
numbers (older files) or one packed string "dz1:K:N:BASE64", value i being
n_i / 10^K, the n_i as zigzag LEB128 varints of consecutive differences.
A second implementation, in Python, for the tests."""
import base64
import math

PREFIX = "dz1:"


def decode(v):
    """The values of an array or a packed string."""
    if isinstance(v, list):
        return v
    k, n, payload = v[len(PREFIX):].split(":", 2)
    k, n = int(k), int(n)
    data = base64.b64decode(payload, validate=True)
    out, acc, pos = [], 0, 0
    for _ in range(n):
        z = shift = 0
        while True:
            b = data[pos]
            pos += 1
            z |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                break
        acc += (z >> 1) ^ -(z & 1)
        out.append(acc / 10 ** k if k >= 0 else float(acc * 10 ** -k))
    assert pos == len(data), "bytes after the values"
    return out


def encode(values):
    """A packed string of the values rounded to 7 significant digits."""
    vals = [float("%.7g" % x) for x in values]
    k = max([6 - math.floor(math.log10(abs(x))) for x in vals if x] or [0])
    for kk in range(k, k + 3):
        ints = [round(x * 10 ** kk) if kk >= 0 else round(x / 10 ** -kk) for x in vals]
        if all((i / 10 ** kk if kk >= 0 else float(i * 10 ** -kk)) == x
               for i, x in zip(ints, vals)):
            break
    else:
        return vals
    out, prev = bytearray(), 0
    for i in ints:
        d = i - prev
        prev = i
        z = (d << 1) if d >= 0 else ((-d) << 1) - 1
        while z >= 0x80:
            out.append((z & 0x7F) | 0x80)
            z >>= 7
        out.append(z)
    return "%s%d:%d:%s" % (PREFIX, kk, len(vals), base64.b64encode(bytes(out)).decode())
