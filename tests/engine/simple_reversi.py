"""A deliberately simple array implementation of the rules, to check the bitboards against.

It walks each of the eight directions square by square: slow and obviously right.
"""

from __future__ import annotations

EMPTY, BLACK, WHITE = 0, 1, 2
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class SimpleBoard:
    def __init__(self) -> None:
        self.cells = [[EMPTY] * 8 for _ in range(8)]  # cells[row][col], row 0 = row 1
        self.cells[3][3] = WHITE  # d4
        self.cells[4][4] = WHITE  # e5
        self.cells[4][3] = BLACK  # d5
        self.cells[3][4] = BLACK  # e4
        self.turn = BLACK

    def flips(self, row: int, col: int, colour: int) -> list[tuple[int, int]]:
        if self.cells[row][col] != EMPTY:
            return []
        other = BLACK + WHITE - colour
        result: list[tuple[int, int]] = []
        for dr, dc in DIRECTIONS:
            line: list[tuple[int, int]] = []
            r, c = row + dr, col + dc
            while 0 <= r < 8 and 0 <= c < 8 and self.cells[r][c] == other:
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < 8 and 0 <= c < 8 and self.cells[r][c] == colour:
                result.extend(line)
        return result

    def moves(self, colour: int) -> list[tuple[int, int]]:
        return [(r, c) for r in range(8) for c in range(8) if self.flips(r, c, colour)]

    def play(self, row: int, col: int) -> list[tuple[int, int]]:
        flipped = self.flips(row, col, self.turn)
        assert flipped, "illegal move"
        self.cells[row][col] = self.turn
        for r, c in flipped:
            self.cells[r][c] = self.turn
        self.turn = BLACK + WHITE - self.turn
        return flipped

    def pass_turn(self) -> None:
        assert not self.moves(self.turn)
        self.turn = BLACK + WHITE - self.turn

    def game_over(self) -> bool:
        return not self.moves(BLACK) and not self.moves(WHITE)

    def count(self, colour: int) -> int:
        return sum(row.count(colour) for row in self.cells)
