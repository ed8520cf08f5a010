"""The engine imports nothing from the UI, the disk, the network or threads."""

import subprocess
import sys

FORBIDDEN = ["textual", "rich", "sqlite3", "socket", "asyncio", "threading", "reversi_tui.tui"]


def test_engine_imports_no_ui_disk_or_network() -> None:
    blocker = (
        "import sys\n"
        f"BLOCKED = {FORBIDDEN!r}\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if any(name == b or name.startswith(b + '.') for b in BLOCKED):\n"
        "            raise ImportError('engine imported ' + name)\n"
        "for b in BLOCKED: sys.modules.pop(b, None)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import pkgutil, importlib, reversi_tui.engine as e\n"
        "for m in pkgutil.walk_packages(e.__path__, 'reversi_tui.engine.'):\n"
        "    importlib.import_module(m.name)\n"
        "print('ok')\n"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", blocker], capture_output=True, text=True, env=None
    )
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
