/** A camera frame as a call on a poor link delivers it: shrunk (area average) to a width and JPEG-encoded again. */
import jpeg from 'jpeg-js';
import { decodeImage } from '../server/integrations/images';

export function shrinkFrame(bytes: Buffer, width: number): Buffer {
  const image = decodeImage(bytes);
  const scale = image.width / width;
  const height = Math.round(image.height / scale);
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * scale);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * scale));
      const y0 = Math.floor(y * scale);
      const y1 = Math.max(y0 + 1, Math.floor((y + 1) * scale));
      const sum = [0, 0, 0];
      for (let yy = y0; yy < y1; yy++)
        for (let xx = x0; xx < x1; xx++)
          for (let c = 0; c < 3; c++)
            sum[c] = (sum[c] as number) + (image.data[(yy * image.width + xx) * 3 + c] as number);
      const n = (x1 - x0) * (y1 - y0);
      for (let c = 0; c < 3; c++) data[(y * width + x) * 4 + c] = Math.round((sum[c] as number) / n);
      data[(y * width + x) * 4 + 3] = 255;
    }
  return jpeg.encode({ width, height, data }, 85).data;
}
