"""Run All in the students' site goes on past a cell tagged ``raises-exception``, as in JupyterLab.

What happens without this (JupyterLite 0.8.6, seen in Chromium on a starter): JupyterLab sends
every cell's ``execute_request`` at once. JupyterLite's kernel client (``LiteKernelClient`` in
``@jupyterlite/services``, ``kernel/client.ts``) runs them one at a time under a mutex and, on
the first ``execute_reply`` whose status is ``error``, cancels the mutex: every request still
waiting for it is dropped in silence. It does so whatever the request's ``stop_on_error``
(JupyterLab sends ``false`` for a cell tagged ``raises-exception``, as every answer and test
cell of a starter is), and the dropped requests get no reply at all. The kernel itself is idle
(the status bar says so) and answers a cell run by hand; but the notebook waits for replies
that never come: its execution indicator stays busy, the later cells never run, and the
checklist in the last cell never shows. A ``comm_msg`` from a widget queued at that moment is
dropped too.

``patch(site)`` rewrites that function in the built site's script so it does what ipykernel
does: an error in a request sent with ``stop_on_error: false`` cancels nothing; an error in
any other request aborts the execute requests queued behind it with an ``aborted`` reply and an
``idle`` status (JupyterLab then shows them as not run, and stops waiting), and any other
queued message is queued again rather than dropped. The three edits are exact strings of the
pinned ``jupyterlite-core`` (0.8.6); a site built from another version stops the build with a
one-line error rather than ship a starter whose Run All hangs.
"""

from __future__ import annotations

from pathlib import Path

# What the kernel client's processMsg and sendMessage read like in jupyterlite-core 0.8.6's
# bundle (minified: ``s`` the message, ``i`` the mutex, ``e`` the kernel id, ``t`` the
# client id, ``p`` @jupyterlab/services), and what each becomes.
_REMEMBER_NO_STOP = (
    'let a=async s=>{try{await i.runExclusive(',
    'let a=async s=>{"execute_request"===s.header.msg_type&&!1===s.content.stop_on_error&&'
    '(this._plaisanteGoOn||(this._plaisanteGoOn=new Set)).add(s.header.msg_id);'
    'try{await i.runExclusive(',
)
_CANCEL_ONLY_IF_STOP = (
    '"execute_reply"===e.header.msg_type&&"error"===e.content.status&&',
    '"execute_reply"===e.header.msg_type&&!(this._plaisanteGoOn&&'
    'this._plaisanteGoOn.delete(e.parent_header.msg_id))&&"error"===e.content.status&&',
)
_ABORT_NOT_DROP = (
    'content:{execution_state:"idle"}}))}}else throw n}};',
    'content:{execution_state:"idle"}}))}else if("error"===n){if("execute_request"!=='
    's.header.msg_type)return void a(s);await i.waitForUnlock();let r=this._kernelSends.get(e);'
    'if(void 0===r)return;r(p.KernelMessage.createMessage({channel:"shell",session:t,'
    'parentHeader:s.header,msgType:"execute_reply",content:{status:"aborted",'
    'execution_count:null},metadata:{status:"aborted"}})),r(p.KernelMessage.createMessage('
    '{channel:"iopub",session:t,parentHeader:s.header,msgType:"status",'
    'content:{execution_state:"idle"}}))}}else throw n}};',
)
EDITS = (_REMEMBER_NO_STOP, _CANCEL_ONLY_IF_STOP, _ABORT_NOT_DROP)
# Marks a patched script, so patching twice changes nothing.
MARK = "this._plaisanteGoOn"


def patch(site: Path) -> Path:
    """Patch the kernel client's script in the built site folder ``site`` (``site/build/*.js``)
    in place; return the script's path.

    Raises RuntimeError naming the jupyterlite-core version to pin when no script, or more than
    one, holds the kernel client, or when one of the edits does not match exactly once."""
    scripts = [path for path in sorted((site / "build").glob("*.js"))
               if "this._cancelReason" in path.read_text(encoding="utf-8")]
    if len(scripts) != 1:
        raise RuntimeError(f"{len(scripts)} scripts of the site hold JupyterLite's kernel "
                           "client, 1 expected: pin jupyterlite-core==0.8.6")
    script = scripts[0]
    text = script.read_text(encoding="utf-8")
    if MARK in text:
        return script
    for before, after in EDITS:
        found = text.count(before)
        if found != 1:
            raise RuntimeError(f"JupyterLite's kernel client ({script.name}) holds {before!r} "
                               f"{found} times, 1 expected: pin jupyterlite-core==0.8.6, the "
                               "version whose Run All plaisante lite mends")
        text = text.replace(before, after)
    script.write_text(text, encoding="utf-8")
    return script
