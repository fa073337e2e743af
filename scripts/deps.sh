#!/bin/sh
# Checks the Debian packages ssdrev builds (and, with "test", tests) with;
# installs the missing ones with apt-get when run as root, otherwise prints
# the exact command and fails. Usage: scripts/deps.sh [build|test|e2e]
what=${1:-build}
missing=""
need_pc() { pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"; }
need_h()  { [ -f "/usr/include/$1" ] || missing="$missing $2"; }
need_f()  { [ -e "$1" ] || missing="$missing $2"; }
need_cmd(){ command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need_cmd pkg-config pkg-config
need_cmd cc gcc
need_pc liburing liburing-dev
need_pc cairo libcairo2-dev
need_pc fontconfig libfontconfig-dev
need_pc jansson libjansson-dev
need_pc libcmark-gfm libcmark-gfm-dev
need_pc blkid libblkid-dev
# compare: the archive root's index and the .xlsx workbook
need_pc sqlite3 libsqlite3-dev
need_pc xlsxwriter libxlsxwriter-dev
need_h cmark-gfm-core-extensions.h libcmark-gfm-extensions-dev
need_h csv.h libcsv-dev
need_h hpdf.h libhpdf-dev
need_f /usr/share/fonts/truetype/nanum/NanumGothic.ttf fonts-nanum
need_f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf fonts-dejavu-core
if [ "$what" = test ]; then
  # the tests compare against fio and numpy, read PDFs back, and use loop devices
  need_cmd pdftoppm poppler-utils
  need_cmd fio fio
  need_cmd python3 python3
  /usr/bin/python3 -c 'import numpy' >/dev/null 2>&1 || missing="$missing python3-numpy"
  # compare_stats.sh checks the statistics against scipy; compare_overlay_runs.sh reads PNG pixels
  /usr/bin/python3 -c 'import scipy.stats' >/dev/null 2>&1 || missing="$missing python3-scipy"
  /usr/bin/python3 -c 'import PIL.Image' >/dev/null 2>&1 || missing="$missing python3-pil"
  need_cmd mkfs.ext4 e2fsprogs
  need_cmd losetup mount
  # the guard matrix (tests/cli/guard_matrix.sh) builds these signatures
  need_cmd sfdisk fdisk
  need_cmd pvcreate lvm2
  need_cmd cryptsetup cryptsetup-bin
  need_cmd mdadm mdadm
  # tests/cli/report_browser.sh prints review.html with a real browser
  need_cmd chromium chromium
  # tests/cli/install.sh formats the installed ssdrev(1)
  need_cmd man man-db
  # compare_report.sh counts the files a compare opens
  need_cmd strace strace
fi
if [ "$what" = e2e ]; then
  # make e2e: a QEMU guest (Debian's cloud kernel, a busybox initramfs) with
  # NVMe controllers, nvme-cli and smartctl inside it, and the host reading
  # the guest's ext4 disk back (debugfs) and partitioning its images (sfdisk)
  need_cmd qemu-system-x86_64 qemu-system-x86
  ls /boot/vmlinuz-*-cloud-amd64 >/dev/null 2>&1 || missing="$missing linux-image-cloud-amd64"
  need_f /bin/busybox busybox-static
  need_cmd nvme nvme-cli
  need_cmd smartctl smartmontools
  need_cmd debugfs e2fsprogs
  need_cmd sfdisk fdisk
  need_cmd cpio cpio
  need_cmd python3 python3
fi
[ -z "$missing" ] && exit 0
# Drop duplicates while keeping order.
missing=$(echo $missing | tr ' ' '\n' | awk '!seen[$0]++' | tr '\n' ' ')
if [ "$(id -u)" = 0 ]; then
  echo "deps: installing:$missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends $missing >/dev/null \
    || { echo "deps: apt-get install failed for:$missing" >&2; exit 1; }
else
  echo "deps: missing Debian packages. Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
