"""The look of the play app: its stylesheet (``app.css``, shipped with the package) with the
dice colors of the palette, and the keyboard shortcuts, as one HTML widget per page.

>>> "p10-die" in stylesheet() and ".p10-c-o" in stylesheet()
True
"""

from __future__ import annotations

import functools
import html
from importlib import resources

from phase10math.play.palette import LETTERS, PALETTE, text_color


def ipw():
    import ipywidgets

    return ipywidgets


def css_classes(widget, *names: str):
    for n in names:
        widget.add_class(n)
    return widget


@functools.cache
def app_css() -> str:
    """The stylesheet of the board and the app (``phase10math/play/app.css``)."""
    return resources.files("phase10math.play").joinpath("app.css").read_text(encoding="utf-8")


def stylesheet() -> str:
    """The dice colors of the palette (a background and the color letter per color code),
    then :func:`app_css`."""
    colors = "".join(
        f".p10-c-{c or 'x'}{{background:{PALETTE[c]} !important;color:{text_color(c)} !important}}"
        f"button.p10-die.p10-c-{c or 'x'}::after{{content:'{LETTERS[c]}'}}"
        for c in PALETTE
    )
    return colors + app_css()


#: Keyboard shortcuts: R roll, 1-9 and 0 hold die 1-10, Enter submits a typed roll,
#: H holds the best, S stops, N next/new turn. Installed once per page, in the capture phase
#: (ipywidgets text boxes stop keydown events from bubbling); with them the typed roll's box
#: gets ``inputmode`` (``none`` on a touch screen: the tap pad types, the phone's keyboard
#: would cover it) and no autocorrect.
KEYS_JS = (
    "if(!window.__p10keys){window.__p10keys=1;"
    # the typed roll: on a touch screen no keyboard (it would cover the tap pad), never
    # autocorrect; set on every entry box as the page draws it
    "var im=function(){var c=window.matchMedia&&matchMedia('(pointer: coarse)').matches;"
    "document.querySelectorAll('.p10-entry input').forEach(function(i){"
    "i.setAttribute('inputmode',c?'none':'text');i.setAttribute('autocomplete','off');"
    "i.setAttribute('autocorrect','off');i.setAttribute('autocapitalize','none');"
    "i.setAttribute('spellcheck','false');});};im();"
    "new MutationObserver(im).observe(document.body,{childList:true,subtree:true});"
    "document.addEventListener('keydown',function(e){"
    "var t=e.target;var board=null;var all=document.querySelectorAll('.p10-turn');"
    "for(var k=0;k<all.length;k++){if(all[k].offsetParent!==null){board=all[k];break;}}"
    "if(!board)return;var inp=t&&(t.tagName==='INPUT'||t.tagName==='TEXTAREA'||"
    "t.tagName==='SELECT');"
    "if(inp){if(e.key==='Enter'&&t.closest('.p10-entry')){var b=t.closest('.p10-turn')"
    ".querySelector('.p10-enter');if(b){e.preventDefault();b.click();t.blur();}}return;}"
    "if(e.ctrlKey||e.metaKey||e.altKey)return;var q=null;"
    "if(e.key==='r'||e.key==='R')q='.p10-roll';else if(e.key==='h'||e.key==='H')q='.p10-best';"
    "else if(e.key==='s'||e.key==='S')q='.p10-stop';else if(e.key==='n'||e.key==='N')"
    "q='.p10-new';else if(e.key==='c'||e.key==='C')q='.p10-reveal';"
    "else if(e.key==='u'||e.key==='U')q='.p10-undo';"
    "else if(e.key==='Enter')q='.p10-enter';"
    "else if(/^[0-9]$/.test(e.key))q='.p10-die-'+((+e.key+9)%10);"
    "if(!q)return;var el=board.querySelector(q);"
    "if(q==='.p10-best'&&el&&el.offsetParent===null)el=board.querySelector('.p10-stop');"
    "if(el&&el.offsetParent!==null&&!el.disabled){e.preventDefault();el.click();}},true);}"
)


def style_widget():
    """An HTML widget carrying the app's CSS and keyboard shortcuts (once per page is enough;
    each board carries one so it also looks right on its own)."""
    w = ipw()
    js = html.escape(KEYS_JS, quote=True)
    return css_classes(
        w.HTML(
            f"<style>{stylesheet()}</style>"
            f'<img src="data:," alt="" style="display:none" onerror="{js}">'
        ),
        "p10-style",
    )
