// SPDX-License-Identifier: GPL-2.0-or-later
#include "audio.h"

int main(int argc, char **argv)
{
	return audio_main(argc, argv);
}
