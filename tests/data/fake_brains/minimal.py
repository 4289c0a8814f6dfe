"""A small brain that speaks the protocol correctly and plays simply (a five, a block, else near the centre): the
check's required scenarios must pass with it, whatever brain it is."""
import sys

size = (0, 0)
stones = {}
block = None


def out(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def five(point, colour):
    x, y = point
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            nx, ny = x + sign * dx, y + sign * dy
            while stones.get((nx, ny)) == colour:
                run += 1
                nx, ny = nx + sign * dx, ny + sign * dy
        if run >= 5:
            return True
    return False


def move():
    free = [(x, y) for x in range(size[0]) for y in range(size[1]) if (x, y) not in stones]
    for colour in (1, 2):
        for point in free:
            if five(point, colour):
                return point
    cx, cy = size[0] // 2, size[1] // 2
    return min(free, key=lambda p: (max(abs(p[0] - cx), abs(p[1] - cy)), p))


def play():
    point = move()
    stones[point] = 1
    out(f"{point[0]},{point[1]}")


def point_of(text):
    x, y = (int(v) for v in text.split(","))
    if not (0 <= x < size[0] and 0 <= y < size[1]):
        raise ValueError("off the board")
    return x, y


for raw in sys.stdin:
    line = raw.strip()
    if not line:
        continue
    word, _, args = line.partition(" ")
    word = word.upper()
    try:
        if block is not None:
            if word == "DONE":
                stones = block
                block = None
                play()
            else:
                x, y, field = (int(v) for v in line.split(","))
                block[(x, y)] = field
        elif word == "START":
            n = int(args)
            if not 5 <= n <= 30:
                out("ERROR unsupported size")
                continue
            size, stones = (n, n), {}
            out("OK")
        elif word == "RESTART":
            stones = {}
            out("OK")
        elif word == "BEGIN":
            play()
        elif word == "TURN":
            stones[point_of(args)] = 2
            play()
        elif word == "BOARD":
            block = {}
        elif word == "TAKEBACK":
            del stones[point_of(args)]
            out("OK")
        elif word == "INFO":
            pass
        elif word == "ABOUT":
            out('name="minimal", version="1.0", author="tests"')
        elif word == "END":
            break
        else:
            out("UNKNOWN command")
    except (ValueError, KeyError):
        out("ERROR bad command")
