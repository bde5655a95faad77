// SPDX-License-Identifier: GPL-2.0-or-later
#include "irqlat.h"

int main(int argc, char **argv)
{
	return irqlat_main(argc, argv);
}
