import { Spinner } from '@blueprintjs/core';
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';

/** A QR code of `value`, `size` pixels square (200 in the studio, docs/product/constants.md). */
export function QrCode({ value, size = 200, alt }: { value: string; size?: number; alt: string }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    toDataURL(value, { width: size, margin: 1, errorCorrectionLevel: 'M' }).then((url) => {
      if (current) setSource(url);
    });
    return () => {
      current = false;
    };
  }, [value, size]);
  return source ? (
    <img src={source} width={size} height={size} alt={alt} className="studio-qr" />
  ) : (
    <div style={{ width: size, height: size }} className="studio-qr">
      <Spinner size={24} />
    </div>
  );
}
