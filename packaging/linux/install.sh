#!/bin/sh
# Install this build for the current user: the program folder under ~/.local/opt, a
# launcher on PATH, the menu entry, the icon and the .stonesaga file type.
set -eu
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=stonesaga-companion
PREFIX="${PREFIX:-$HOME/.local}"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
mkdir -p "$PREFIX/opt" "$PREFIX/bin" "$DATA/applications" \
    "$DATA/icons/hicolor/256x256/apps" "$DATA/icons/hicolor/scalable/apps" "$DATA/mime/packages"
if [ "$HERE" != "$PREFIX/opt/$NAME" ]; then
    rm -rf "$PREFIX/opt/$NAME"
    cp -R "$HERE" "$PREFIX/opt/$NAME"
fi
ln -sf "$PREFIX/opt/$NAME/$NAME" "$PREFIX/bin/$NAME"
cp "$HERE/$NAME.desktop" "$DATA/applications/"
cp "$HERE/$NAME.png" "$DATA/icons/hicolor/256x256/apps/$NAME.png"
cp "$HERE/$NAME.svg" "$DATA/icons/hicolor/scalable/apps/$NAME.svg"
cp "$HERE/$NAME-mime.xml" "$DATA/mime/packages/$NAME.xml"
command -v update-mime-database >/dev/null && update-mime-database "$DATA/mime" || true
command -v update-desktop-database >/dev/null && update-desktop-database "$DATA/applications" || true
echo "Installed: $PREFIX/bin/$NAME (make sure $PREFIX/bin is on PATH)"
