"""The main window: the views of the campaign, the status bar, and the menus.

Start-up contract: this module imports only Qt, so the window can be shown before the
database layer is imported. ``MainWindow`` first shows an "Opening campaign" page; the
launcher then calls :meth:`MainWindow.set_campaign` once the campaign is open.
Every change goes through :meth:`MainWindow.run_operation`, which shows refusals, refreshes
Undo/Redo, and emits ``campaign_changed`` with the operation's ``Changes``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QStackedWidget, QTabWidget, QWidget

from companion import __version__
from companion.ui.host import Host

if TYPE_CHECKING:
    from pathlib import Path

    from PySide6.QtWidgets import QDialog

    from companion.operations import Campaign, Changes
    from companion.ui.first_view import FirstView

APP_TITLE = "Stonesaga Companion"


class MainWindow(Host):
    """The companion's main window (the :class:`~companion.ui.host.Host` every dialog
    and view is given; ``campaign_changed`` is declared there)."""

    def __init__(self) -> None:
        super().__init__()
        self.campaign: Campaign | None = None
        self.setWindowTitle(APP_TITLE)
        # At most a 1366x768 laptop's room (issue 20), less where the screen is smaller.
        from companion.ui.fit import fit_resize

        fit_resize(self, 1180, 680)
        self._pages = QStackedWidget()
        self._opening = QLabel("Opening campaign…")
        # Centred through the style sheet: importing Qt's enum namespace (``Qt``) costs
        # tens of milliseconds, which the first paint should not wait for.
        self._opening.setStyleSheet("qproperty-alignment: AlignCenter; color: palette(mid);")
        font = self._opening.font()
        font.setPointSizeF(font.pointSizeF() * 1.8)
        self._opening.setFont(font)
        self._opening.setObjectName("openingLabel")
        self._pages.addWidget(self._opening)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.currentChanged.connect(self._tab_shown)
        self._pages.addWidget(self.tabs)
        # A view taller or wider than a laptop's window (a large font) scrolls inside its
        # own tab (issue 20), never the window: a scroller around the tabs scrolled the
        # tab bar half out of the window and nested a second scroll bar in the Day tab
        # (issue 27 item 3). The tab widget asks for no more room than its tab bar.
        self.setCentralWidget(self._pages)
        self._status_labels: dict[str, QLabel] = {}
        self._catching_up: str | None = None
        """The view being brought up to date with what it left while hidden."""
        self._build_status_bar()
        self._build_menus()
        self.recent_files_provider: Callable[[], list[str]] = lambda: []
        self.open_file_handler: Callable[[str], None] | None = None
        self._refresh_undo_actions()

    # -- campaign ------------------------------------------------------------------

    @property
    def opening_page(self) -> QLabel:
        """The page shown while a campaign opens (the first thing painted)."""
        return self._opening

    def show_opening(self, text: str = "Opening campaign…") -> None:
        """Show the "opening" page (used at start-up and while switching campaigns)."""
        self._opening.setText(text)
        self._pages.setCurrentWidget(self._opening)

    def set_campaign(self, campaign: Campaign) -> None:
        """Show ``campaign`` in every view (called once it is open).

        Only the first tab's view is built now; each other tab holds an empty page until
        it is first shown (or its view is asked for through :meth:`view`), when the
        view is built, filled and put in the page's place."""
        from companion.ui.views import VIEWS, build_view

        self.apply_deferred_shortcuts()
        if self.campaign is not None and self.campaign is not campaign:
            self.campaign.close()
        self.campaign = campaign
        self._views_ready = False
        while self.tabs.count():
            widget = self.tabs.widget(0)
            self.tabs.removeTab(0)
            if widget is not None:
                widget.deleteLater()
        self._views: dict[str, QWidget] = {}
        self._view_pages: dict[str, QWidget] = {}
        self._pending: dict[str, Changes | None] = {}
        for number, (key, title, _module, _name) in enumerate(VIEWS):
            if number == 0:
                self._views[key] = build_view(self, key)
                page = tab_page(self._views[key])
            else:
                page = QWidget()
                page.setObjectName(f"{key}Page")
            self._view_pages[key] = page
            self.tabs.addTab(page, title)
        self._pages.setCurrentWidget(self.tabs)
        self.setWindowTitle(window_title(campaign.title, getattr(campaign, "kind", "")))
        for action in self._campaign_actions:
            action.setEnabled(True)
        self.refresh_all()
        if getattr(campaign, "content_problem", None) is not None:
            from companion.ui.my_cards import offer_fix  # the user's pack is broken

            offer_fix(self)
        if getattr(campaign, "cards_missing", ()) or getattr(campaign, "cards_edited", ()):
            from companion.ui.my_cards import offer_carried  # cards it brought along

            offer_carried(self)
        self._views_ready = True
        from companion.ui.sync_keeper import keep_in_step  # issue 38: a shared campaign

        keep_in_step(self, campaign)
        # Once the campaign is on screen (the window is idle): the integrity check and
        # the open backup begin, and a procedure saved mid-way is offered again.
        shown_at = campaign.file.last_event_id()
        QTimer.singleShot(0, self, lambda: self._campaign_shown(campaign, shown_at))

    def show_first_view(self, first: FirstView) -> None:
        """Show the start-up's first view (issue 37): the Valley tab and the status bar
        of the campaign about to open, read without the database layer. The campaign
        actions stay off and no other tab is built; :meth:`set_campaign`, called in the
        same step, replaces it with the real views before any click is handled."""
        from PySide6.QtCore import QEvent, Qt
        from PySide6.QtWidgets import QApplication

        from companion.ui.views import VIEWS
        from companion.ui.views.valley import ValleyView

        self.apply_deferred_shortcuts()
        self._views, self._view_pages = {}, {}  # no real view yet (current_view: None)
        valley = ValleyView(self)
        for number, (key, title, _module, _name) in enumerate(VIEWS):
            if number == 0:
                page = tab_page(valley)
            else:
                page = QWidget()
                page.setObjectName(f"{key}Page")
            self.tabs.addTab(page, title)
        self._pages.setCurrentWidget(self.tabs)
        self.setWindowTitle(window_title(first.title, first.kind))
        for key, text in first.status.items():
            self._status_labels[key].setText(text)
        valley.show_first(first.map)
        # Laid out now, and the map fitted to its laid-out size, as the real view is
        # once the event loop has run. Only the layouts' own posted events: no queued
        # call or timer of anybody else's runs here, and no input.
        layout = QEvent.Type.LayoutRequest
        QApplication.sendPostedEvents(None, layout)
        # Fitted to the whole viewport, scroll bars aside, as the real view (built into
        # a window already laid out) is fitted before its scroll bars show.
        bars = valley.map.horizontalScrollBarPolicy(), valley.map.verticalScrollBarPolicy()
        valley.map.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        valley.map.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        QApplication.sendPostedEvents(None, layout)
        valley.map.fit()
        valley.map.setHorizontalScrollBarPolicy(bars[0])
        valley.map.setVerticalScrollBarPolicy(bars[1])
        QApplication.sendPostedEvents(None, layout)

    def forget_first_view(self) -> None:
        """The campaign of the first view did not open: its tabs, title and status
        labels go, and the "opening" page shows."""
        while self.tabs.count():
            widget = self.tabs.widget(0)
            self.tabs.removeTab(0)
            if widget is not None:
                widget.deleteLater()
        self.setWindowTitle(APP_TITLE)
        for label in self._status_labels.values():
            label.setText("")
        self.show_opening()

    def view(self, key: str) -> QWidget:
        """The view of the tab ``key`` ('valley', 'characters', 'day', 'journal',
        'society', 'behemoth'), built (and filled from the campaign) when first asked
        for. Needs an open campaign."""
        view = self._views.get(key)
        if view is not None:
            self._catch_up(key)
        if view is None:
            from companion.ui.views import build_view

            view = self._views[key] = build_view(self, key)
            # Filled now, whatever it was left while it waited to be built.
            self._pending[key] = None
            self._catch_up(key)
            self._put_in_tab(key, view)
        return view

    def _put_in_tab(self, key: str, view: QWidget) -> None:
        """Put a view built late in its empty page's place; the current tab stays."""
        page = self._view_pages[key]
        index = self.tabs.indexOf(page)
        current = self.tabs.currentIndex()
        title = self.tabs.tabText(index)
        # Nobody outside needs to hear of the swap (the same tab stays current).
        self.tabs.blockSignals(True)
        try:
            self.tabs.removeTab(index)
            view_page = tab_page(view)
            self.tabs.insertTab(index, view_page, title)
            self.tabs.setCurrentIndex(current)
        finally:
            self.tabs.blockSignals(False)
        self._view_pages[key] = view_page
        page.deleteLater()

    def current_view(self) -> QWidget | None:
        """The view of the tab shown now (None while its view is not built)."""
        page = self.tabs.currentWidget()
        for key, candidate in self._view_pages.items():
            if candidate is page:
                return self._views.get(key)
        return None

    def show_view(self, key: str) -> QWidget:
        """Bring the tab ``key`` to the front and return its view (see :meth:`view`)."""
        self.tabs.setCurrentWidget(self._view_pages[key])
        return self.view(key)

    def _tab_shown(self, index: int) -> None:
        """Build the view of a tab the first time it is shown; bring it up to date with
        what it left while hidden (:meth:`defer`)."""
        if not getattr(self, "_views_ready", False) or index < 0:
            return
        page = self.tabs.widget(index)
        for key, candidate in self._view_pages.items():
            if candidate is page:
                self.view(key)
                return

    def defer(self, view: QWidget, changes: object) -> bool:
        """A view on a tab not shown may leave ``changes`` until its tab is shown or it
        is asked for (:meth:`view`), when it refreshes once for all it was left."""
        if not getattr(self, "_views_ready", False):
            return False
        key = next((k for k, v in self._views.items() if v is view), None)
        if key is None or key == self._catching_up or \
                self._view_pages.get(key) is self.tabs.currentWidget():
            return False
        later: Any = changes
        if key not in self._pending:
            self._pending[key] = later
        else:
            earlier = self._pending[key]
            self._pending[key] = (None if earlier is None or later is None
                                  else earlier.then(later))
        return True

    def _catch_up(self, key: str) -> None:
        """Refresh the view ``key`` with the changes it left, if it left any."""
        if key not in self._pending:
            return
        changes = self._pending.pop(key)
        refresh = getattr(self._views[key], "on_changed", None)
        if refresh is None:
            return
        view = self._views[key]
        # Refreshed as it was while hidden, then shown: its new boxes are laid out as
        # they appear (refreshed on screen, a page of new boxes came up squeezed).
        shown = view.isVisible()
        if shown:
            view.hide()
        self._catching_up = key
        try:
            refresh(changes)
        finally:
            self._catching_up = None
            if shown:
                view.show()

    def _campaign_shown(self, campaign: Campaign, shown_at: int) -> None:
        if campaign is not self.campaign or campaign.file.closed:
            return
        campaign.file.start_check()
        fresh = campaign.file.last_event_id() == shown_at  # nothing was played meanwhile
        from companion.operations import own_cards

        if own_cards.needs_carrying(campaign):  # made before its cards travelled with it
            self.run_operation(own_cards.carry_now)
        if fresh:
            self._resume_procedure()

    def _resume_procedure(self) -> None:
        """A procedure saved mid-way (the app was closed mid-Night) is shown again."""
        from companion.operations import procedures

        if self.campaign is not None and not self.campaign.file.closed and \
                not self.isHidden() and procedures.in_progress(self.campaign) is not None:
            self.open_procedure()

    def open_procedure(self) -> QDialog | None:
        """Show the procedure in progress: the Night wizard for the Night, else the
        procedure dialog (reusing one already open). Returns the dialog, or None if
        nothing is in progress (the user is told)."""
        from PySide6.QtWidgets import QMessageBox

        from companion.operations import Refused, procedures
        from companion.ui.night_wizard import NightWizard
        from companion.ui.procedure_dialog import ProcedureDialog

        if self.campaign is None:
            return None
        try:
            view = procedures.in_progress(self.campaign)
        except Refused as refusal:
            QMessageBox.warning(self, "Not allowed", str(refusal))
            return None
        if view is None:
            QMessageBox.information(self, "Nothing in progress",
                                    "No activity or Night is in progress.")
            return None
        cls: type[QDialog] = NightWizard if view.kind == "night" else ProcedureDialog
        dialog = next((c for c in self.findChildren(cls) if type(c) is cls), None)
        if dialog is None:
            dialog = cls(self)
        else:
            dialog.last_summary = None  # type: ignore[attr-defined]
            dialog.finished_procedure = None  # type: ignore[attr-defined]
        dialog.show()
        dialog.refresh()  # type: ignore[attr-defined]
        dialog.raise_()
        dialog.activateWindow()
        return dialog

    def show_created(self, campaign: Campaign, path: Path) -> None:
        """Show ``campaign``, just made in the new file ``path``, and remember the file
        as the campaign to open next time."""
        from companion.ui.file_menu import remember

        remember(path)
        self.set_campaign(campaign)

    def refresh_all(self) -> None:
        """Refresh status bar, Undo/Redo and every view (after opening or undo)."""
        self._refresh_status()
        self._refresh_undo_actions()
        self.campaign_changed.emit(None)

    def run_operation(self, operation: Callable[..., Changes], /,
                      **kwargs: Any) -> Changes | None:
        """Run one operation on the open campaign; show a refusal in a message box.

        Returns the operation's ``Changes`` (truthy) when it was applied, else None.
        """
        from companion.operations import Refused

        if self.campaign is None:
            return None
        campaign = self.campaign
        mark, content = campaign.file.last_event, campaign.content
        try:
            changes = operation(campaign, **kwargs)
        except Refused as refusal:
            from PySide6.QtWidgets import QMessageBox

            QMessageBox.warning(self, "Not allowed", str(refusal))
            return None
        if changes.written is None and campaign.content is content:
            # What it wrote, from its own journal event (issue 37): the views, the
            # status bar and Undo/Redo refresh for that, without reading again.
            from dataclasses import replace

            written = campaign.written_since(mark)
            if written is not None:
                changes = replace(changes, written=written)
        self._refresh_status(changes)
        self._refresh_undo_actions(changes)
        self.campaign_changed.emit(changes)
        # The result stays until the next one (it vanished after 6 s), whole on hover.
        self.statusBar().showMessage(changes.summary)
        self.statusBar().setToolTip(changes.summary)
        self._offer_outcomes(changes.summary)
        return changes

    def _offer_outcomes(self, summary: str) -> None:
        """A result that says "Read Codex outcome 109" (a Discovery drawn on the Day tab
        or the Valley map, a card's ``{do: read}``) gets "Read outcome 109…" in the
        status bar: shown and acted on in the Codex outcome dialog (issue 27 item 6).
        Built on first need, so start-up does not pay for it."""
        from companion.ui.codex_outcome import OutcomeLinks, outcomes_named

        links = getattr(self, "outcome_links", None)
        if links is None:
            if not outcomes_named(summary):
                return
            links = self.outcome_links = OutcomeLinks(self)
            links.setObjectName("statusOutcomes")
            self.statusBar().insertPermanentWidget(1, links)
        links.show_for(summary)

    # -- status bar ----------------------------------------------------------------

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        # What an operation said, in a label of its own left of the game's numbers: cut
        # short with "…" (the whole message in its tooltip), never over the Omen and
        # Activity labels (issue 27 item 21). QStatusBar draws its own message where
        # the normal widgets go; there are none, so it draws nothing.
        from companion.ui.widgets import ElidedLabel

        self.status_message = ElidedLabel()
        self.status_message.setObjectName("statusMessage")
        self.status_message.setAccessibleName("Last message")
        bar.addPermanentWidget(self.status_message, 1)
        bar.messageChanged.connect(self.status_message.set_full_text)
        from companion.ui.last_result import WholeResult  # the rest, readable (issue 36)

        self.read_result = WholeResult(self.status_message)
        bar.addPermanentWidget(self.read_result)
        for key, tip in (
            ("omen", "The current omen: the top card of the Night discard, else the "
             "challenge's starting omen"),
            ("activity", "Activity this challenge"),
            ("unrest", "Unrest (persists between games)"),
            ("epoch", "Epoch"),
            ("challenge", "The challenge being played"),
        ):
            label = QLabel("")
            label.setToolTip(tip)
            label.setAccessibleName(tip)
            label.setObjectName(f"status_{key}")
            label.setContentsMargins(8, 0, 8, 0)
            bar.addPermanentWidget(label)
            self._status_labels[key] = label

    def _refresh_status(self, changes: Changes | None = None) -> None:
        """The status bar's figures: those ``changes`` carry, else read (none when the
        operation is known to have written none of them)."""
        if self.campaign is None:
            return
        written = changes.written if changes is not None else None
        status = written.status if written is not None else None
        if status is None:
            if written is not None and not written.writes_status:
                return
            status = self.campaign.status_line()
        omens = ", ".join(o.title() for o in status.omens) or "none"
        self._status_labels["omen"].setText(f"Omen: {omens}")
        self._status_labels["activity"].setText(f"Activity: {status.activity}")
        self._status_labels["unrest"].setText(f"Unrest: {status.unrest}")
        self._status_labels["epoch"].setText(f"Epoch {status.epoch}")
        self._status_labels["challenge"].setText(
            f"Challenge: {status.challenge_name}" if status.challenge_name else "No challenge"
        )

    # -- menus ---------------------------------------------------------------------

    def _action(
        self,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence.StandardKey | str | None = None,
        *,
        needs_campaign: bool = False,
    ) -> QAction:
        action = QAction(text, self)
        if isinstance(shortcut, QKeySequence.StandardKey):
            action.setShortcuts(shortcut)
        elif shortcut:
            # Parsing a key sequence from text builds Qt's whole enum namespace (tens
            # of ms): done right after the first paint, see apply_deferred_shortcuts.
            self._deferred_shortcuts.append((action, shortcut))
        action.triggered.connect(slot)
        if needs_campaign:
            action.setEnabled(False)
            self._campaign_actions.append(action)
        return action

    def _dialog(self, name: str) -> Callable[[], object]:
        """A menu slot that imports ``companion.ui.dialogs`` only when first used: the
        dialogs' Qt classes cost start-up time the first paint should not wait for."""
        def open_dialog() -> object:
            from companion.ui import dialogs

            return getattr(dialogs, name)(self)

        return open_dialog

    def _ui(self, module: str, name: str) -> Callable[[], object]:
        """A menu slot calling ``companion.ui.<module>.<name>(window)``, imported when
        first used so the dialogs cost nothing at start-up."""
        def open_dialog() -> object:
            import importlib

            return getattr(importlib.import_module(f"companion.ui.{module}"), name)(self)

        return open_dialog

    def _procedure(self, name: str) -> Callable[[], object]:
        """A menu slot opening the procedure dialogs (imported when first used)."""
        def open_procedure() -> object:
            from companion.ui import procedure_dialog

            return getattr(procedure_dialog, name)(self)

        return open_procedure

    def _build_menus(self) -> None:
        self._campaign_actions: list[QAction] = []
        self._deferred_shortcuts: list[tuple[QAction, str]] = []
        file_menu = self.menuBar().addMenu("&File")
        file_menu.addAction(self._action("&New Campaign…", self._dialog("new_campaign"),
                                         QKeySequence.StandardKey.New))
        file_menu.addAction(self._action("&Open…", self._dialog("open_campaign"),
                                         QKeySequence.StandardKey.Open))
        self.recent_menu = file_menu.addMenu("Open &Recent")
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addSeparator()
        file_menu.addAction(self._action("Save a &Copy…", self._dialog("save_copy"),
                                         QKeySequence.StandardKey.SaveAs, needs_campaign=True))
        file_menu.addAction(self._action("&Export Campaign…", self._dialog("export"),
                                         "Ctrl+E", needs_campaign=True))
        file_menu.addAction(self._action("&Import Campaign…", self._dialog("import_"),
                                         "Ctrl+I"))
        file_menu.addAction(self._action("Import from the Campaign &Journal…",
                                         self._ui("webjournal_dialog", "import_web_journal")))
        file_menu.addAction(self._action("Export for the Campaign Jo&urnal…",
                                         self._ui("webjournal_dialog", "export_web_journal"),
                                         needs_campaign=True))
        file_menu.addAction(self._action("&Backups…", self._dialog("backups"),
                                         "Ctrl+B", needs_campaign=True))
        file_menu.addSeparator()
        # Issue 38: one campaign on several machines, through a folder a sync tool shares.
        file_menu.addAction(self._action("S&hare Campaign…",
                                         self._ui("sharing_dialogs", "share_campaign"),
                                         needs_campaign=True))
        file_menu.addAction(self._action("Join a Shared Campai&gn…",
                                         self._ui("sharing_dialogs", "join_shared_campaign")))
        file_menu.addSeparator()
        file_menu.addAction(self._action("&Quit", self.close, QKeySequence.StandardKey.Quit))

        edit_menu = self.menuBar().addMenu("&Edit")
        edit_menu.setToolTipsVisible(True)  # the whole Undo/Redo label
        self.undo_action = self._action("&Undo", self._undo, QKeySequence.StandardKey.Undo)
        self.redo_action = self._action("&Redo", self._redo, QKeySequence.StandardKey.Redo)
        edit_menu.addAction(self.undo_action)
        edit_menu.addAction(self.redo_action)
        edit_menu.addSeparator()
        # Not Ctrl+Shift+S: that is Save a Copy's (Save As) on most desktops, and a key
        # bound twice fires neither (issue 20).
        edit_menu.addAction(self._action("Save &Point…", self._dialog("save_point"),
                                         "Ctrl+Shift+P", needs_campaign=True))
        edit_menu.addAction(self._action("Undo to Save P&oint…",
                                         self._dialog("undo_to_save_point"),
                                         needs_campaign=True))
        edit_menu.addSeparator()
        preferences = self._action("Se&ttings…", self._dialog("settings"),
                                   QKeySequence.StandardKey.Preferences)
        preferences.setMenuRole(QAction.MenuRole.PreferencesRole)
        edit_menu.addAction(preferences)

        play_menu = self.menuBar().addMenu("&Play")
        self.continue_action = self._action("&Continue Procedure…",
                                            self._procedure("open_procedure"),
                                            "Ctrl+Return", needs_campaign=True)
        play_menu.addAction(self.continue_action)
        play_menu.addAction(self._action("Begin the &Night…", self._procedure("start_night"),
                                         "Ctrl+Shift+N", needs_campaign=True))
        play_menu.addSeparator()
        for text, module, name, shortcut in (
            ("C&rafting…", "crafting_dialog", "open_crafting", "Ctrl+Shift+C"),
            ("&Process…", "play_dialogs", "open_processing", None),
            ("E&xchange…", "day_dialogs", "open_exchange", None),
            ("Apply &Effects…", "play_dialogs", "open_effects", "Ctrl+Shift+E"),
            ("Ability &Test…", "play_dialogs", "open_ability_test", "Ctrl+T"),
            ("&Legends and Mantle Power…", "legend_dialog", "open_legends", None),
            (None, None, None, None),
            ("&Start Challenge…", "play_dialogs", "open_start_challenge", None),
            ("En&d Challenge…", "play_dialogs", "open_end_challenge", None),
            ("Retained Supplies and R&uins…", "play_dialogs", "open_retained_and_ruins", None),
            ("&Goals…", "play_dialogs", "open_goals", None),
            ("New E&poch…", "play_dialogs", "open_new_epoch", None),
            ("&Age and Heal…", "play_dialogs", "open_ageing", None),
            (None, None, None, None),
            ("&Codex…", "codex_dialog", "open_codex", "Ctrl+K"),
        ):
            if text is None or module is None or name is None:
                play_menu.addSeparator()
                continue
            play_menu.addAction(self._action(text, self._ui(module, name), shortcut,
                                             needs_campaign=True))
        self.play_menu = play_menu

        content_menu = self.menuBar().addMenu("C&ontent")
        content_menu.addAction(self._action("My &Cards…", self._ui("my_cards", "open_my_cards"),
                                            needs_campaign=True))
        content_menu.addAction(self._action(  # issue 25 part 6: materials in a minute
            "Enter a &Material Token…", self._ui("material_token", "open_material_token"),
            needs_campaign=True))
        self.content_menu = content_menu

        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction(self._action("&Getting Started…",
                                         self._ui("help_dialog", "open_getting_started")))
        help_menu.addAction(self._action("Rulebook &Readings…",
                                         self._dialog("readings"), "F1"))
        help_menu.addAction(self._action("&About Stonesaga Companion", self._about))

    def apply_deferred_shortcuts(self) -> None:
        """Give the menu actions their text shortcuts (Ctrl+E, F1 ...); called once the
        window has been painted (also by set_campaign, whichever comes first)."""
        for action, shortcut in self._deferred_shortcuts:
            action.setShortcut(QKeySequence(shortcut))
        self._deferred_shortcuts.clear()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        recent = self.recent_files_provider()
        if not recent:
            empty = self.recent_menu.addAction("No recent campaigns")
            empty.setEnabled(False)
        for path in recent:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self._open_recent(p))

    def _open_recent(self, path: str) -> None:
        if self.open_file_handler is not None:
            self.open_file_handler(path)

    def _refresh_undo_actions(self, changes: Changes | None = None) -> None:
        """Undo/Redo's labels: those ``changes`` carry, else read from the file."""
        written = changes.written if changes is not None else None
        if written is not None and written.labels is not None:
            undo, redo = written.labels
        else:
            undo = self.campaign.undo_label() if self.campaign else None
            redo = self.campaign.redo_label() if self.campaign else None
        for action, verb, label in ((self.undo_action, "&Undo", undo),
                                    (self.redo_action, "&Redo", redo)):
            action.setEnabled(label is not None)
            action.setText(f"{verb} {_menu_label(label)}" if label else verb)
            action.setToolTip(f"{verb.replace('&', '')} {label}" if label else "")
            action.setStatusTip(action.toolTip())
        self._refresh_continue_action(written)

    def _refresh_continue_action(self, written: Any = None) -> None:
        """Play > Continue Procedure is offered only while one is in progress (asked
        again only when the procedures' table was written, or it is not known)."""
        if self.campaign is None or not hasattr(self, "continue_action"):
            return
        if written is not None and not written.columns & {("procedure_state", "*"),
                                                          ("procedure_state", "kind")}:
            return  # no procedure row came or went
        # Its row, not the procedure rebuilt (issue 37); one that cannot be rebuilt is
        # offered too: opening it shows why.
        from companion.operations.procedure_row import procedure_saved

        self.continue_action.setEnabled(procedure_saved(self.campaign))

    def _undo(self) -> None:
        from companion.operations import undo

        # Its Changes say "everything" and which rows it put back: one refresh.
        self.run_operation(undo)

    def _redo(self) -> None:
        from companion.operations import redo

        self.run_operation(redo)

    def _about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.about(
            self,
            "About Stonesaga Companion",
            f"<h3>Stonesaga Companion {__version__}</h3>"
            "<p>Keeps a Stonesaga campaign — the valley, the journal, legends, outposts, "
            "unrest, behemoths and the challenge log — in one file, and walks the game's "
            "procedures step by step, at the table or in the app.</p>"
            "<p>An unofficial fan-made tool. The box's cards and Codex are not included; "
            "the sample content pack is original.</p>",
        )

    # -- closing ---------------------------------------------------------------------

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt's name)
        if self.campaign is not None:
            self.campaign.close()
            self.campaign = None
        super().closeEvent(event)


def window_title(title: str, kind: str) -> str:
    """The main window's title: the campaign's, and which kind of campaign it is (my
    own box, the sample), always in sight."""
    from companion.ui.first_view import SHORT_WORDS  # operations.box's, without sqlmodel

    words = SHORT_WORDS.get(kind, "")
    return f"{title} ({words}) — {APP_TITLE}" if words else f"{title} — {APP_TITLE}"


MENU_LABEL_CHARS = 48
"""An Undo/Redo label longer than this is shortened in the menu (whole in its tooltip)."""


def tab_page(view: QWidget) -> QWidget:
    """The page a view sits on in its tab: the view itself when it scrolls its own
    contents (``scrolls_itself``), else the view in a scroll area of its own, so that a
    view taller than a laptop's window scrolls below the tab bar, not with it."""
    if getattr(view, "scrolls_itself", False):
        return view
    from PySide6.QtWidgets import QFrame, QScrollArea

    area = QScrollArea()
    area.setObjectName(f"{view.__class__.__name__}Scroller")
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(view)
    return area


def _menu_label(text: str) -> str:
    """``text`` short enough for a menu, cut at a word, mnemonics escaped."""
    text = " ".join(text.split())
    if len(text) > MENU_LABEL_CHARS:
        cut = text[:MENU_LABEL_CHARS].rsplit(" ", 1)[0] or text[:MENU_LABEL_CHARS]
        text = cut.rstrip(",.;:") + "…"
    return text.replace("&", "&&")


def notice_page(text: str) -> QWidget:
    """A plain page saying what a later version adds here (never fake data)."""
    from PySide6.QtCore import Qt

    label = QLabel(text)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    label.setMargin(40)
    return label
